#!/bin/bash
# The FIX lane under load on one fresh demo appliance (lanes=http,fix,bsl-tcp), against the BSL Direct TCP lane's load
# client and the JSON route's in the same run: A is FixLoadBench (SESSIONS FIX order_entry sessions, unsigned
# NewOrderSingles, IOC limit buys under the book: each accepted and cancelled), once for each session count in SESSIONS
# ("1 8"); B is the CLI's loadgen over BSL TCP (16 sessions, compact requests of COMPACT signed orders, a bid and its
# cancel); C is the CLI's loadgen on the JSON route (650 traders, one signed action a request, 64 in flight). A B C A B C
# for ROUNDS rounds (2). Each run: RATE orders/s (1000) for DUR s (5) after a second's warm-up, round trip from the
# intended send time; then the closed-loop ceiling (CEIL FIX orders, 20000, 64 in flight; TCP_CEIL orders, 40000, 16
# requests in flight; JSON_CEIL actions, 30000, 64 in flight: the loadgen leaves its first second out). The per-account action limit is raised (limits.account.actions): the
# FIX orders of a session are trading actions of one account, which it would otherwise hold to 50/s; and so are the
# logon attempts a minute (fix.logon.attempts.per.minute): every session logs on from the one loopback address.
# usage: [PORT=18098 FIX_PORT=19498 TCP_PORT=19398 WORK=/tmp/fix-load] fix-load.sh APPLIANCE_JAR CLI_JAR BENCH_JAR
set -euo pipefail
jar=$(realpath "$1"); cli=$(realpath "$2"); benchjar=$(realpath "$3"); root="$(cd "$(dirname "$0")/../.." && pwd)"
port=${PORT:-18098}; fixport=${FIX_PORT:-19498}; tcp=${TCP_PORT:-19398}; work=${WORK:-/tmp/fix-load}; data=$work-data
rm -rf "$data" "$work"; mkdir -p "$work"; cd "$work"
rounds=${ROUNDS:-2}; compact=${COMPACT:-20}; rate=${RATE:-1000}; dur=${DUR:-5}; ceil=${CEIL:-20000}
sessions=${SESSIONS:-1 8}; jsonceil=${JSON_CEIL:-30000}; tcpceil=${TCP_CEIL:-40000}
. "$root/bench/results/appliance-run.sh"
start_appliance "$jar" "$port" "$data" \
  "lanes=http,fix,bsl-tcp\nfix.port=$fixport\nbsl.tcp.port=$tcp\nlimits.account.actions=1000000\nfix.logon.attempts.per.minute=1000\n"
trap 'kill $app 2>/dev/null || true' EXIT
fixrun() { # fixrun RUN SESSIONS
  ticks $app > "$1.before"
  java $F -cp "$benchjar" io.venue.transport.fix.FixLoadBench --url http://127.0.0.1:$port \
    --operator-key "$data/keys/operator.key" --fix 127.0.0.1:$fixport --rates "$rate" --duration "$dur" \
    --ceiling "$ceil" --sessions "$2" > "$1.out" 2>&1
  ticks $app > "$1.after"
  grep -E "^fix" "$1.out" | sed "s/^/$1: /"
}
tcprun() { # tcprun RUN
  java $F -XX:+UseZGC -jar "$cli" loadgen --url http://127.0.0.1:$port --operator-key "$data/keys/operator.key" \
    --accounts 16 --compact "$compact" --rates "$rate" --duration "$dur" --ceiling 16 --ceiling-actions "$tcpceil" \
    --bsl-tcp "127.0.0.1:$tcp" > "$1.out" 2>&1
  grep -E "^ceiling|/s " "$1.out" | sed "s/^/$1: /"
}
jsonrun() { # jsonrun RUN
  java $F -XX:+UseZGC -jar "$cli" loadgen --url http://127.0.0.1:$port --operator-key "$data/keys/operator.key" \
    --accounts 650 --rates "$rate" --duration "$dur" --ceiling 64 --ceiling-actions "$jsonceil" > "$1.out" 2>&1
  grep -E "^ceiling|/s " "$1.out" | sed "s/^/$1: /"
}
fixrun warm 1 > /dev/null
for r in $(seq 1 "$rounds"); do
  for n in $sessions; do fixrun "A$r-fix$n" "$n"; done
  tcprun "B$r-tcp"
  jsonrun "C$r-json"
done
uptime
