#!/usr/bin/env bash
# Our engine against exchange-core 0.5.3 on the same command stream (docs/PERFORMANCE.md, "Against exchange-core"):
# for each exchange-core configuration, EngineLoadRun (A) and ExchangeCorePeerRun (B) alternating A B A B, each JVM
# a fresh one with the same flags, the same commands, accounts and seed; then the median of all measured runs of each
# side and their ratio. With JOURNAL=1 (the default) also the journaled pair: JournaledEngineRun's "journaled" phase (A)
# against exchange-core with its own disk journal (B), both writing into TMPDIR.
# Run it on a quiet machine: it takes over an hour with the defaults.
# usage: bench/results/peer-ab.sh [out-file]
# environment: COMMANDS (2000000), ACCOUNTS (2000), ROUNDS (2: A B A B), HEAP (-Xms6g -Xmx6g),
#   CONFIGS (exchange-core configurations, PeerConfig's names; default: its three presets, each with its own waits and
#   with YIELDING and BLOCKING), JOURNAL (1), JOURNAL_CONFIGS (latency,journal throughput,journal), TMPDIR (/tmp),
#   AMEND_KEEPS_SIZE (empty; 1: both sides run the stream's variant whose price amends keep the order's size)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
out="${1:-$root/bench/results/peer-ab-$(date -u +%Y-%m-%d).txt}"
jar="$root/bench/target/benchmarks.jar"
if [ ! -f "$jar" ] || [ -n "${REBUILD:-}" ]; then
  (cd "$root" && ./mvnw -B -q -pl bench -am package -DskipTests)
fi
commands="${COMMANDS:-2000000}"
accounts="${ACCOUNTS:-2000}"
rounds="${ROUNDS:-2}"
configs="${CONFIGS:-latency latency,YIELDING latency,BLOCKING throughput throughput,YIELDING throughput,BLOCKING base \
base,YIELDING base,BUSY_SPIN}"
journal_configs="${JOURNAL_CONFIGS:-latency,journal throughput,journal}"
tmp="${TMPDIR:-/tmp}"
F="$(sed -n 's/^venue.jvm.flags=//p' "$root/tuning/jvm-flags.properties")"
P="$(sed -n 's/^venue.jvm.production.flags=//p' "$root/tuning/jvm-flags.properties")"
stream="the stream itself"
variant=""
if [ -n "${AMEND_KEEPS_SIZE:-}" ]; then stream="the variant whose amends keep the size"; \
  variant="-Dvenue.bench.amendKeepsSize=true"; fi
# shellcheck disable=SC2206
jvm=($F $P ${HEAP:--Xms6g -Xmx6g} -Djava.io.tmpdir="$tmp" $variant -cp "$jar")
log="$(mktemp)"

# the median of the numbers on standard input (commas allowed)
median() { tr -d , | sort -n | awk '{v[NR]=$1} END {if (NR == 0) {printf "0\n"} else if (NR % 2) \
  {printf "%.0f\n", v[(NR+1)/2]} else {printf "%.0f\n", (v[NR/2]+v[NR/2+1])/2}}'; }

{
  echo "peer A/B, $(date -u +%FT%TZ), commit $(cd "$root" && git rev-parse --short HEAD), $(nproc) cores," \
    "load average $(cut -d' ' -f1-3 /proc/loadavg), $commands commands, $accounts accounts, $rounds rounds," \
    "$stream"
  echo "java: ${jvm[*]}"
} | tee "$out"

for config in $configs; do
  : > "$log.a"; : > "$log.b"
  for round in $(seq 1 "$rounds"); do
    java "${jvm[@]}" io.venue.bench.workload.EngineLoadRun "$commands" "$accounts" none "$tmp/peer-ab-engine.json" \
      > "$log" 2>&1 || { cat "$log"; exit 1; }
    grep -E '^throughput (run|median)' "$log" | sed "s/^/A ours round $round: /" | tee -a "$out"
    sed -n 's/^throughput run [0-9]*: \([0-9,]*\) commands.*/\1/p' "$log" >> "$log.a"
    java "${jvm[@]}" io.venue.bench.peer.ExchangeCorePeerRun "$commands" "$accounts" "$config" > "$log" 2>&1 \
      || { grep -v LockInventory "$log"; exit 1; }
    grep -E '^(exchange-core |as exchange-core|throughput (run|median))' "$log" \
      | sed "s/^/B exchange-core $config round $round: /" | tee -a "$out"
    sed -n 's/^throughput run [0-9]*: \([0-9,]*\) commands.*/\1/p' "$log" >> "$log.b"
  done
  a="$(median < "$log.a")"; b="$(median < "$log.b")"
  awk -v a="$a" -v b="$b" -v c="$config" 'BEGIN {printf "RESULT %s: ours %.0f, exchange-core %.0f commands/s, " \
    "ours/exchange-core %.2f\n", c, a, b, a / b}' | tee -a "$out"
done

if [ "${JOURNAL:-1}" = 1 ]; then
  for config in $journal_configs; do
    : > "$log.a"; : > "$log.b"
    for round in $(seq 1 "$rounds"); do
      java "${jvm[@]}" io.venue.bench.workload.JournaledEngineRun "$commands" "$accounts" "" > "$log" 2>&1 \
        || { cat "$log"; exit 1; }
      grep -E '^(run [0-9]|median: alone)' "$log" | sed "s/^/A ours journaled round $round: /" | tee -a "$out"
      sed -n 's/^run [0-9]*: .* journaled \([0-9,]*\)\/s.*/\1/p' "$log" >> "$log.a"
      java "${jvm[@]}" io.venue.bench.peer.ExchangeCorePeerRun "$commands" "$accounts" "$config" > "$log" 2>&1 \
        || { grep -v LockInventory "$log"; exit 1; }
      grep -E '^(exchange-core |throughput (run|median))' "$log" \
        | sed "s/^/B exchange-core $config round $round: /" | tee -a "$out"
      sed -n 's/^throughput run [0-9]*: \([0-9,]*\) commands.*/\1/p' "$log" >> "$log.b"
    done
    a="$(median < "$log.a")"; b="$(median < "$log.b")"
    awk -v a="$a" -v b="$b" -v c="$config" 'BEGIN {printf "RESULT journaled, %s: ours %.0f, exchange-core %.0f " \
      "commands/s, ours/exchange-core %.2f\n", c, a, b, a / b}' | tee -a "$out"
  done
fi
rm -f "$log" "$log.a" "$log.b"
echo "wrote $out"
