#!/bin/bash
# The FIX lane under load on one fresh demo appliance (lanes=http,fix,bsl-tcp), against the BSL Direct TCP lane's load
# client at the same rate in the same run: A is FixLoadBench (one FIX order_entry session, unsigned NewOrderSingles, IOC
# limit buys under the book: each accepted and cancelled), B is the CLI's loadgen over BSL TCP (16 sessions, compact
# requests of COMPACT signed orders, a bid and its cancel). A B A B for ROUNDS rounds (2). Each run: RATE orders/s
# (1000) for DUR s (5) after a second's warm-up, round trip from the intended send time; then the closed-loop ceiling
# (CEIL orders, 20000, 64 FIX orders or 16 requests in flight). The per-account action limit is raised
# (limits.account.actions): the FIX orders are trading actions of one account, which it would otherwise hold to 50/s.
# usage: [PORT=18098 FIX_PORT=19498 TCP_PORT=19398 WORK=/tmp/fix-load] fix-load.sh APPLIANCE_JAR CLI_JAR BENCH_JAR
set -euo pipefail
jar=$(realpath "$1"); cli=$(realpath "$2"); benchjar=$(realpath "$3"); root="$(cd "$(dirname "$0")/../.." && pwd)"
port=${PORT:-18098}; fixport=${FIX_PORT:-19498}; tcp=${TCP_PORT:-19398}; work=${WORK:-/tmp/fix-load}; data=$work-data
rm -rf "$data" "$work"; mkdir -p "$work"; cd "$work"
rounds=${ROUNDS:-2}; compact=${COMPACT:-20}; rate=${RATE:-1000}; dur=${DUR:-5}; ceil=${CEIL:-20000}
. "$root/bench/results/appliance-run.sh"
start_appliance "$jar" "$port" "$data" \
  "lanes=http,fix,bsl-tcp\nfix.port=$fixport\nbsl.tcp.port=$tcp\nlimits.account.actions=1000000\n"
trap 'kill $app 2>/dev/null || true' EXIT
fixrun() { # fixrun RUN
  ticks $app > "$1.before"
  java $F -cp "$benchjar" io.venue.transport.fix.FixLoadBench --url http://127.0.0.1:$port \
    --operator-key "$data/keys/operator.key" --fix 127.0.0.1:$fixport --rates "$rate" --duration "$dur" \
    --ceiling "$ceil" > "$1.out" 2>&1
  ticks $app > "$1.after"
  grep -E "^fix" "$1.out" | sed "s/^/$1: /"
}
tcprun() { # tcprun RUN
  java $F -XX:+UseZGC -jar "$cli" loadgen --url http://127.0.0.1:$port --operator-key "$data/keys/operator.key" \
    --accounts 16 --compact "$compact" --rates "$rate" --duration "$dur" --ceiling 16 --ceiling-actions "$ceil" \
    --bsl-tcp "127.0.0.1:$tcp" > "$1.out" 2>&1
  grep -E "^ceiling|/s " "$1.out" | sed "s/^/$1: /"
}
fixrun warm > /dev/null
for r in $(seq 1 "$rounds"); do
  fixrun "A$r-fix"
  tcprun "B$r-tcp"
done
uptime
