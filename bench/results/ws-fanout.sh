#!/bin/bash
# WebSocket fan-out at a fixed order rate: SUBS public subscribers (1000) of book.1 and trades.1 on one fresh demo
# appliance while the load generator sends signed orders at RATE actions/s (1000) for DUR seconds (30).
# usage: ws-fanout.sh APPLIANCE_JAR CLI_JAR LABEL   (CLIENT nio, the default, or java: as in ws-ceiling-ab.sh; PORT
# 18092 and DATA /tmp/wsf-data, to keep clear of another run on the same machine)
# Prints ws-fanout's line (frames delivered, seq gaps, the delay from a frame's ts to its last subscriber), the frames
# delivered per second of the load's DUR (frames flow only while orders arrive: every bid changes the book), and the
# CPU of the appliance's threads over the load's run, per delivered frame, by thread name. The subscribers record from
# their start until DUR + 45 s (the generator funds and signs before it sends).
set -euo pipefail
jar=$1; cli=$2; label=$3; root="$(cd "$(dirname "$0")/../.." && pwd)"
port=${PORT:-18092}; data=${DATA:-/tmp/wsf-data}; work=/tmp/wsf-$label; rm -rf "$data" "$work"; mkdir -p "$work"; cd "$work"
subs=${SUBS:-1000}; rate=${RATE:-1000}; dur=${DUR:-30}; client=${CLIENT:-nio}
# every subscriber is on 127.0.0.1: the per-address connection cap is lifted for the loopback address
. "$root/bench/results/appliance-run.sh"
start_appliance "$jar" "$port" "$data" "http.max.connections=20000\n"
trap 'kill $app 2>/dev/null || true; wait $app 2>/dev/null || true' EXIT
java $F -XX:+UseZGC -jar "$cli" ws-fanout --url ws://127.0.0.1:$port/api/v1/ws/public --subscribers "$subs" \
  --client "$client" --duration $((dur + 45)) > fanout.out 2>&1 &
fan=$!
sleep 8
ticks $app > before.txt
java $F -XX:+UseZGC -jar "$cli" loadgen --url http://127.0.0.1:$port --operator-key "$data/keys/operator.key" \
  --rates "$rate" --duration "$dur" --warmup 1 > load.out 2>&1
ticks $app > after.txt
wait $fan || true
grep -E "frames delivered|delay" fanout.out | sed "s/^/$label: /"
grep -E "/s " load.out | sed "s/^/$label: /"
frames=$(sed -n 's/^frames delivered \([0-9,]*\).*/\1/p' fanout.out | tr -d ,)
echo "$label: $(( ${frames:-0} / dur )) frames/s delivered over the load's $dur s ($subs subscribers, $rate orders/s)"
cpu_per "$label" frame "${frames:-0}" before.txt after.txt 0.05
