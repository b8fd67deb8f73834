#!/usr/bin/env bash
# Builds the benchmark jar and runs JMH through BenchMain, which adds the appliance's JVM flags and its production
# flags (Agrona's bounds checks off) to every fork. Arguments are JMH's own, e.g.: bench/run.sh ActionCodecBenchmark -prof gc
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
jar="$root/bench/target/benchmarks.jar"
if [ ! -f "$jar" ] || [ -n "${REBUILD:-}" ]; then
  (cd "$root" && ./mvnw -B -q -pl bench -am package -DskipTests)
fi
flags="$(sed -n 's/^venue.jvm.flags=//p' "$root/tuning/jvm-flags.properties")"
# shellcheck disable=SC2086
exec java $flags -jar "$jar" "$@"
