#!/bin/bash
# The load generator with the project's base JVM flags only, plus GENERATOR_GC_FLAGS (empty: the JVM's default collector).
root="$(cd "$(dirname "$0")/../.." && pwd)"
F=$(sed -n 's/^venue.jvm.flags=//p' "$root/tuning/jvm-flags.properties")
# shellcheck disable=SC2086
exec java $F ${GENERATOR_GC_FLAGS:-} -jar "$root/tools/target/venue-cli.jar" "$@"
