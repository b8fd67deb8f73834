#!/bin/bash
# The cost of WebSocket readers at the JSON route's ceiling: on one fresh demo appliance, the load generator's
# closed-loop ceiling with no subscriber (A) and with SUBS public subscribers of book.1 and trades.1, STALLED of them
# not reading (B), alternating A B A B for ROUNDS rounds (2). Prints each arm's ceiling, each round's B/A, and the
# ratio of the medians over the rounds whose two runs answered.
# usage: ws-ceiling-ab.sh APPLIANCE_JAR CLI_JAR   (environment: SUBS 100, STALLED 1, CEIL 30000 actions a ceiling run,
# CLIENT nio: the subscribers on one thread with non-blocking sockets, so they cost next to nothing; java: Java's client;
# PORT 18093, DATA /tmp/wsc-data and WORK /tmp/wsc, to keep clear of another run on the same machine)
set -euo pipefail
jar=$1; cli=$2; root="$(cd "$(dirname "$0")/../.." && pwd)"
port=${PORT:-18093}; data=${DATA:-/tmp/wsc-data}; work=${WORK:-/tmp/wsc}; rm -rf "$data" "$work"; mkdir -p "$work"; cd "$work"
subs=${SUBS:-100}; stalled=${STALLED:-1}; rounds=${ROUNDS:-2}; ceil=${CEIL:-30000}; client=${CLIENT:-nio}
. "$root/bench/results/appliance-run.sh"
start_appliance "$jar" "$port" "$data"
trap 'kill $fan 2>/dev/null || true; kill $app 2>/dev/null || true; wait $app 2>/dev/null || true' EXIT
fan=
gen() { java $F -XX:+UseZGC -jar "$cli" loadgen --url http://127.0.0.1:$port --operator-key "$data/keys/operator.key" \
  --rates 1000 --duration 1 --accounts 650 --ceiling 64 --ceiling-actions "$ceil" > "$1.out" 2>&1
  v=$(sed -n 's/.*ceiling, 64 in flight (\([0-9,]*\)\/s).*/\1/p' "$1.out" | tr -d ,); echo "${v:-0}"; }
gen warm > /dev/null
a=(); b=()
for r in $(seq 1 "$rounds"); do
  a+=("$(gen "a$r")"); echo "round $r A (no subscriber): ${a[-1]}/s"
  java $F -XX:+UseZGC -jar "$cli" ws-fanout --url ws://127.0.0.1:$port/api/v1/ws/public --subscribers "$subs" \
    --stalled "$stalled" --client "$client" --duration 600 > "fan$r.out" 2>&1 &
  fan=$!
  sleep 5
  b+=("$(gen "b$r")"); echo "round $r B ($subs subscribers, $stalled stalled): ${b[-1]}/s"
  kill $fan 2>/dev/null || true; wait $fan 2>/dev/null || true; fan=
done
python3 - "${a[*]}" "${b[*]}" <<'PY'
import sys, statistics
a = [int(x or 0) for x in sys.argv[1].split()]; b = [int(x or 0) for x in sys.argv[2].split()]
# a run that answered nothing (the generator starved of CPU past the server's header deadline, say) is no figure: its
# round is left out, and said so
kept = [(x, y) for x, y in zip(a, b) if x > 0 and y > 0]
for r, (x, y) in enumerate(zip(a, b), 1):
    print(f"round {r}: B/A {y / x:.3f}" if x > 0 and y > 0 else f"round {r}: left out (a run answered nothing)")
if kept:
    ma = statistics.median(x for x, _ in kept); mb = statistics.median(y for _, y in kept)
    print(f"median A {ma:,.0f}/s, B {mb:,.0f}/s, B/A {mb / ma:.3f} ({len(kept)} of {len(a)} rounds)")
PY
