#!/bin/bash
# The cost of journal.force=group end to end: one fresh demo appliance per arm, journal.force=none (A) and group (B),
# alternating A B A B for ROUNDS rounds (2). In each, the load generator warms up once, then runs fixed rates (RATES,
# 1000,3000 actions/s, DUR seconds each) and its closed-loop ceiling (CEIL actions, 30000). Prints each arm's lines and
# the medians: the ceiling, and the p99 at each fixed rate.
# usage: force-ab.sh APPLIANCE_JAR CLI_JAR   (environment: ROUNDS, RATES, DUR, CEIL; DATA_ROOT, /tmp, holds the data)
set -euo pipefail
jar=$(realpath "$1"); cli=$(realpath "$2"); root="$(cd "$(dirname "$0")/../.." && pwd)"
port=18095; work=/tmp/force-ab; rm -rf "$work"; mkdir -p "$work"; cd "$work"
rounds=${ROUNDS:-2}; rates=${RATES:-1000,3000}; dur=${DUR:-5}; ceil=${CEIL:-30000}
. "$root/bench/results/appliance-run.sh"
app=
trap 'kill $app 2>/dev/null || true' EXIT
arm() { # arm NAME MODE ROUND
  local data="${DATA_ROOT:-/tmp}/force-ab-data"; rm -rf "$data"
  EXTRA="journal.force=$2\n" start_appliance "$jar" "$port" "$data"
  gen() { java $F -XX:+UseZGC -jar "$cli" loadgen --url http://127.0.0.1:$port \
    --operator-key "$data/keys/operator.key" --rates "$rates" --duration "$dur" --accounts 650 --ceiling 64 \
    --ceiling-actions "$ceil" > "$1.out" 2>&1; }
  gen "$1-$3-warm"
  gen "$1-$3"
  grep -E "^ceiling|/s " "$1-$3.out" | sed "s/^/round $3 $1 ($2): /"
  kill $app; wait $app 2>/dev/null || true; app=
}
for r in $(seq 1 "$rounds"); do arm A none "$r"; arm B group "$r"; done
python3 - "$rounds" <<'PY'
import re, statistics, sys, glob
rounds = int(sys.argv[1])
def figures(arm):
    ceil, p99 = [], {}
    for r in range(1, rounds + 1):
        text = open(f"{arm}-{r}.out").read()
        ceil.append(int(re.search(r"ceiling, \d+ in flight \(([0-9,]+)/s\)", text).group(1).replace(",", "")))
        for rate, value in re.findall(r"^([0-9,]+)/s .*?p99 ([0-9.]+)", text, re.M):
            p99.setdefault(rate, []).append(float(value))
    return ceil, p99
ca, pa = figures("A"); cb, pb = figures("B")
print(f"ceiling: none {ca} median {statistics.median(ca):,.0f}/s; group {cb} median {statistics.median(cb):,.0f}/s; "
      f"group/none {statistics.median(cb) / statistics.median(ca):.3f}")
for rate in pa:
    print(f"p99 at {rate}/s: none {pa[rate]} median {statistics.median(pa[rate]):.3f} ms; group {pb[rate]} median "
          f"{statistics.median(pb[rate]):.3f} ms")
PY
