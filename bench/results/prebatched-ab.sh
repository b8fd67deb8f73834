#!/bin/bash
# One arm of the pre-batched lane's A/B (PERFORMANCE.md): a fresh demo appliance from JAR; a background generator sends
# compact requests of 1,000 orders at BG_RATE orders/s (open loop); once it has signed, a foreground generator sends
# compact requests of 2 orders (a bid and its cancel) at FG_RATE orders/s, whose latency is the figure.
# The background generator waits after its signing until the orders' dated start; the foreground starts when the
# background starts sending, and its run (after a few seconds of set-up and signing) lies inside the background's.
# usage: prebatched-ab.sh TAG JAR    environment: BG_RATE (5000), BG_DUR (30), FG_RATE (400), FG_DUR (10)
tag=$1; jar=$2
root="$(cd "$(dirname "$0")/../.." && pwd)"
pkill -f "^java .*venue-appliance.jar"; sleep 2
data=/tmp/pbdata; d=/tmp/pb/$tag; rm -rf "$d" $data; mkdir -p "$d"; cd "$d" || exit 1
printf "demo=true\nhttp.port=18081\nedge.ip.exempt=127.0.0.1\nmm.account.actions=1000000\nmm.key.actions=1000000\nmm.ip.actions=1000000\nmm.market.actions=1000000\nmm.shard.actions=1000000\n" > venue.properties
F=$(sed -n 's/^venue.jvm.flags=//p' "$root/tuning/jvm-flags.properties")
# shellcheck disable=SC2086
java $F -XX:+UseZGC -Dagrona.disable.bounds.checks=true -Xms1g -Xmx1g -XX:+AlwaysPreTouch -jar "$jar" --config venue.properties \
  --data $data > app.out 2>&1 &
sleep 10
# twice: the first pair warms the appliance up (its JIT compiles the routes for a minute), the second is measured
for pass in warm measured; do
  "$root/bench/results/ab-loadgen.sh" loadgen --url http://127.0.0.1:18081 --operator-key $data/keys/operator.key --compact 1000 \
    --rates "${BG_RATE:-5000}" --duration "$([ $pass = warm ] && echo 10 || echo "${BG_DUR:-30}")" --warmup 0 --accounts 4 --out bg.json > bg.out 2>&1 &
  bg=$!
  while ! grep -q '^sending from' bg.out 2>/dev/null; do sleep 0.2; done
  "$root/bench/results/ab-loadgen.sh" loadgen --url http://127.0.0.1:18081 --operator-key $data/keys/operator.key --compact 2 \
    --rates "${FG_RATE:-400}" --duration "${FG_DUR:-10}" --warmup 1 --accounts 4 --out fg.json > fg.out 2>&1
  wait $bg
  [ $pass = warm ] && echo "$tag warm-up: foreground $(grep '/s ' fg.out | sed 's/.*latency/latency/')"
done
echo "$tag background: $(grep '/s ' bg.out | sed 's/ *answered/ answered/')"
echo "$tag foreground: $(grep '/s ' fg.out | sed 's/ *answered/ answered/')"
pkill -f "^java .*venue-appliance.jar"; sleep 1
