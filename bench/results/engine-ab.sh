#!/usr/bin/env bash
# Two builds of the engine A B A B in one run (docs/PERFORMANCE.md, "Fewer event bytes per command"): EngineLoadRun in
# memory (throughput runs only) and JournaledEngineRun (the engine alone, with its state, journaled, two threads,
# replay), each a fresh JVM with the appliance's flags and the production flags, alternating A and B; then the medians
# of every measured run of each side. A and B are benchmark jars (e.g. one built from another commit with
# `git archive <commit> | tar -x -C <dir>` and `./mvnw -B -q -pl bench -am package -DskipTests` there).
# usage: bench/results/engine-ab.sh <jar A> <jar B> [out-file]
# environment: COMMANDS (1000000), ACCOUNTS (2000), ROUNDS (2), HEAP (-Xms4g -Xmx4g), TMPDIR (/tmp), PHASES ("load journaled")
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
jar_a="$1"; jar_b="$2"
out="${3:-$root/bench/results/engine-ab-$(date -u +%Y-%m-%d).txt}"
commands="${COMMANDS:-1000000}"; accounts="${ACCOUNTS:-2000}"; rounds="${ROUNDS:-2}"; tmp="${TMPDIR:-/tmp}"
F="$(sed -n 's/^venue.jvm.flags=//p' "$root/tuning/jvm-flags.properties")"
P="$(sed -n 's/^venue.jvm.production.flags=//p' "$root/tuning/jvm-flags.properties")"
# shellcheck disable=SC2206
jvm=($F $P ${HEAP:--Xms4g -Xmx4g} -Djava.io.tmpdir="$tmp")
log="$(mktemp)"
median() { tr -d , | sort -n | awk '{v[NR]=$1} END {if (NR == 0) {printf "0\n"} else if (NR % 2) \
  {printf "%.0f\n", v[(NR+1)/2]} else {printf "%.0f\n", (v[NR/2]+v[NR/2+1])/2}}'; }
{
  echo "engine A/B, $(date -u +%FT%TZ), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)," \
    "$commands commands, $accounts accounts, $rounds rounds"
  echo "A: $jar_a"; echo "B: $jar_b"; echo "java: ${jvm[*]}"
} | tee "$out"
for phase in ${PHASES:-load journaled}; do
  for side in a b; do : > "$log.$side.1"; : > "$log.$side.2"; : > "$log.$side.3"; done
  for round in $(seq 1 "$rounds"); do
    for side in a b; do
      jar="$jar_a"; [ "$side" = b ] && jar="$jar_b"
      if [ "$phase" = load ]; then
        java "${jvm[@]}" -cp "$jar" io.venue.bench.workload.EngineLoadRun "$commands" "$accounts" none \
          "$tmp/engine-ab-$side.json" > "$log" 2>&1 || { cat "$log"; exit 1; }
        grep -E '^throughput (run|median)' "$log" | sed "s/^/${side^^} in memory round $round: /" | tee -a "$out"
        sed -n 's/^throughput run [0-9]*: \([0-9,]*\) commands.*/\1/p' "$log" >> "$log.$side.1"
      else
        java "${jvm[@]}" -cp "$jar" io.venue.bench.workload.JournaledEngineRun "$commands" "$accounts" "" \
          > "$log" 2>&1 || { cat "$log"; exit 1; }
        grep -E '^(run [0-9]|median)' "$log" | sed "s/^/${side^^} journaled round $round: /" | tee -a "$out"
        sed -n 's/^run [0-9]*: alone \([0-9,]*\)\/s.*/\1/p' "$log" >> "$log.$side.1"
        sed -n 's/^run [0-9]*: .* journaled \([0-9,]*\)\/s.*/\1/p' "$log" >> "$log.$side.2"
        sed -n 's/^run [0-9]*: .* journaled \([0-9,]*\)\/s (\([0-9]*\)%).*/\2/p' "$log" >> "$log.$side.3"
      fi
    done
  done
  a="$(median < "$log.a.1")"; b="$(median < "$log.b.1")"
  if [ "$phase" = load ]; then
    awk -v a="$a" -v b="$b" 'BEGIN {printf "RESULT in memory: A %.0f, B %.0f commands/s, B/A %.2f\n", a, b, b / a}' \
      | tee -a "$out"
  else
    ja="$(median < "$log.a.2")"; jb="$(median < "$log.b.2")"
    ra="$(median < "$log.a.3")"; rb="$(median < "$log.b.3")"
    awk -v a="$a" -v b="$b" -v ja="$ja" -v jb="$jb" -v ra="$ra" -v rb="$rb" 'BEGIN {printf "RESULT journaled: " \
      "alone A %.0f, B %.0f; journaled A %.0f, B %.0f commands/s, B/A %.2f; journaled/alone (median of the runs) " \
      "A %d%%, B %d%%\n", a, b, ja, jb, jb / ja, ra, rb}' | tee -a "$out"
  fi
done
rm -f "$log" "$log".*
echo "wrote $out"
