#!/bin/bash
# The BSL Direct TCP lane against the HTTP compact route on one fresh demo appliance (lanes=http,bsl-tcp): the load
# generator sends the same compact requests of COMPACT signed orders (20) over the HTTP compact route (A) and over BSL
# TCP sessions (B), alternating A B A B for ROUNDS rounds (2). Each run: a fixed rate (RATE orders/s, 2000, DUR s, 5)
# for the round trip from the intended send time, then the closed-loop ceiling (CEIL orders, 40000, 16 in flight),
# with the appliance's CPU per order over the whole run by thread (/proc). Then the signature recovery's own cost
# (RecoveryBenchmark, native), for the ratio the issue asks: CPU per signed order over one recovery.
# usage: [PORT=18097 TCP_PORT=19397 WORK=/tmp/bsl-ab] bsl-tcp-ab.sh APPLIANCE_JAR CLI_JAR [BENCH_JAR]
set -euo pipefail
jar=$(realpath "$1"); cli=$(realpath "$2"); benchjar=${3:+$(realpath "$3")}; root="$(cd "$(dirname "$0")/../.." && pwd)"
port=${PORT:-18097}; tcp=${TCP_PORT:-19397}; data=${WORK:-/tmp/bsl-ab}-data; work=${WORK:-/tmp/bsl-ab}; rm -rf "$data" "$work"; mkdir -p "$work"; cd "$work"
rounds=${ROUNDS:-2}; compact=${COMPACT:-20}; rate=${RATE:-2000}; dur=${DUR:-5}; ceil=${CEIL:-40000}
. "$root/bench/results/appliance-run.sh"
start_appliance "$jar" "$port" "$data" "lanes=http,bsl-tcp\nbsl.tcp.port=$tcp\n"
trap 'kill $app 2>/dev/null || true' EXIT
gen() { # gen RUN [extra loadgen options]; (not "name": ticks sets that)
  local run=$1; shift
  ticks $app > "$run.before"
  java $F -XX:+UseZGC -jar "$cli" loadgen --url http://127.0.0.1:$port --operator-key "$data/keys/operator.key" \
    --accounts 16 --compact "$compact" --rates "$rate" --duration "$dur" --ceiling 16 --ceiling-actions "$ceil" "$@" \
    > "$run.out" 2>&1
  ticks $app > "$run.after"
  local orders
  orders=$(python3 -c 'import re,sys; t=open(sys.argv[1]).read(); print(sum(int(n.replace(",", "")) for n in re.findall(r"ok ([0-9,]+)", t)) * int(sys.argv[2]))' "$run.out" "$compact")
  grep -E "^ceiling|/s " "$run.out" | sed "s/^/$run: /"
  cpu_per "$run" order "$orders" "$run.before" "$run.after" 1.0 | tail -4
}
gen warm > /dev/null
for r in $(seq 1 "$rounds"); do
  gen "A$r-http"
  gen "B$r-tcp" --bsl-tcp "127.0.0.1:$tcp"
done
python3 - "$rounds" <<'PY'
import re, statistics, sys
rounds = int(sys.argv[1])
def fig(name):
    t = open(f"{name}.out").read()
    c = int(re.search(r"ceiling, \d+ in flight \(([0-9,]+)/s\)", t).group(1).replace(",", ""))
    p = re.search(r"^[0-9,]+/s .*?p50 ([0-9.]+) ms, p90 [0-9.]+, p99 ([0-9.]+), p99.9 ([0-9.]+)", t, re.M)
    return c, float(p.group(1)), float(p.group(2)), float(p.group(3))
for arm, label in (("A", "http"), ("B", "tcp")):
    f = [fig(f"{arm}{r}-{label}") for r in range(1, rounds + 1)]
    print(f"{label}: ceilings {[x[0] for x in f]} median {statistics.median(x[0] for x in f):,.0f} orders/s; "
          f"p50 {[x[1] for x in f]} p99 {[x[2] for x in f]} p99.9 {[x[3] for x in f]} ms")
PY
kill $app; wait $app 2>/dev/null || true
if [ -n "$benchjar" ]; then
  java $F -jar "$benchjar" 'RecoveryBenchmark.recover$' -p implementation=native -wi 2 -i 3 -w 2 -r 3 -f 1 2>&1 | \
    grep -E "^RecoveryBenchmark|^Benchmark"
fi
