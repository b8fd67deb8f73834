#!/usr/bin/env bash
# Installs what the build needs on a fresh Debian machine: a full JDK 17 (Chronicle Map compiles
# classes at run time, so a JRE is not enough) and Maven. Does nothing when both are present.
set -euo pipefail
need=()
command -v javac >/dev/null || need+=(openjdk-17-jdk-headless)
command -v mvn >/dev/null || need+=(maven)
if [ ${#need[@]} -gt 0 ]; then
  echo "installing: ${need[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}"
fi
