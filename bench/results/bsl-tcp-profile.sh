#!/bin/bash
# JFR of the appliance at the BSL TCP lane's closed-loop ceiling (same start as bsl-tcp-ab.sh)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"; jar=$root/appliance/target/venue-appliance.jar; cli=$root/tools/target/venue-cli.jar
port=${PORT:-18098}; tcp=${TCP_PORT:-19398}; data=/tmp/bsl-prof-data; work=/tmp/bsl-prof; rm -rf "$data" "$work"; mkdir -p "$work"; cd "$work"
. "$root/bench/results/appliance-run.sh"
start_appliance "$jar" "$port" "$data" "lanes=http,bsl-tcp\nbsl.tcp.port=$tcp\n"
trap 'kill $app 2>/dev/null || true' EXIT
lg() { java $F -XX:+UseZGC -jar "$cli" loadgen --url http://127.0.0.1:$port --operator-key "$data/keys/operator.key" \
    --accounts 16 --compact 20 --rates 2000 --duration 2 --ceiling 16 --ceiling-actions "$1" --bsl-tcp 127.0.0.1:$tcp; }
lg 20000 > warm.out 2>&1
jcmd $app JFR.start name=p settings=profile filename=$work/p.jfr > /dev/null
lg 40000 > run.out 2>&1
jcmd $app JFR.stop name=p > /dev/null
grep -E "^ceiling|/s " run.out
jfr print --events jdk.ExecutionSample p.jfr > samples.txt
jfr print --events jdk.ObjectAllocationSample p.jfr > alloc.txt
