#!/usr/bin/env bash
# Installs what the build needs on a fresh Debian machine: a full JDK 17 (Chronicle Map compiles classes at run
# time, so a JRE is not enough), and Python 3 (the tests run a WebSocket client written in it, tools/interop).
# Maven is not installed: ./mvnw brings the version the build pins (.mvn/wrapper/maven-wrapper.properties) from
# Maven Central on first use, into ~/.m2/wrapper. Does nothing when a JDK 17 and Python 3 are present.
set -euo pipefail
if ! command -v python3 >/dev/null; then
  echo "installing: python3"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3
fi
if javac -version 2>&1 | grep -q '^javac 17\.'; then
  exit 0
fi
echo "installing: openjdk-17-jdk-headless"
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq openjdk-17-jdk-headless
if ! javac -version 2>&1 | grep -q '^javac 17\.'; then
  echo "JDK 17 installed, but 'javac' on the PATH is another version: set JAVA_HOME=/usr/lib/jvm/java-17-openjdk-$(dpkg --print-architecture)" >&2
fi
