#!/usr/bin/env bash
# Starts the appliance. With no arguments: the embedded demo venue on http://127.0.0.1:8080, data under ./data.
# Arguments go to the appliance: [--config FILE] [--data DIR] [--port N] (docs/OPERATIONS.md).
# Installs the JDK when missing and builds the appliance and the CLI with ./mvnw on first use (REBUILD=1 forces it).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
jar="$root/appliance/target/venue-appliance.jar"
cli="$root/tools/target/venue-cli.jar"
if [ ! -f "$jar" ] || [ ! -f "$cli" ] || [ -n "${REBUILD:-}" ]; then
  command -v javac >/dev/null || "$root/scripts/install-prerequisites.sh"
  (cd "$root" && ./mvnw -B -q -pl appliance,tools -am package -DskipTests)
fi
flags="$(sed -n 's/^venue.jvm.flags=//p' "$root/tuning/jvm-flags.properties")"
# the collector: the file's choice unless VENUE_JVM_RUN_FLAGS is set (empty: the JVM's default)
flags="$flags ${VENUE_JVM_RUN_FLAGS-$(sed -n 's/^venue.jvm.run.flags=//p' "$root/tuning/jvm-flags.properties")}"
# Agrona's bounds checks off unless VENUE_JVM_PRODUCTION_FLAGS is set (empty: on)
flags="$flags ${VENUE_JVM_PRODUCTION_FLAGS-$(sed -n 's/^venue.jvm.production.flags=//p' "$root/tuning/jvm-flags.properties")}"
# the heap: fixed and touched at start unless VENUE_APPLIANCE_HEAP is set (empty: the JVM's sizing); not for the
# short-lived promote command, which would spend about a second touching it
if [ "${1:-}" != promote ]; then
  flags="$flags ${VENUE_APPLIANCE_HEAP-$(sed -n 's/^venue.jvm.appliance.heap=//p' "$root/tuning/jvm-flags.properties")}"
fi
# shellcheck disable=SC2086 # the flags are a space-separated list on purpose
exec java $flags -jar "$jar" "$@"
