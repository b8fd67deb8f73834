#!/bin/bash
# One arm of the end-to-end A/B runs of PERFORMANCE.md: a fresh demo appliance from JAR, its idle CPU over 5 s, then
# the load generator (bench/results/ab-loadgen.sh, the project's base flags plus GENERATOR_GC_FLAGS) at RATES.
# usage: ab-run.sh TAG JAR "APPLIANCE_GC_FLAGS" "GENERATOR_GC_FLAGS" "EXTRA_PROPERTIES (\n-separated)" RATES
# environment: DUR (seconds per rate, 10), ACC (traders, 300), LGX (more generator options, e.g. --ceiling 64 ...)
tag=$1; jar=$2; aopts=$3; lopts=$4; extra=$5; rates=$6
root="$(cd "$(dirname "$0")/../.." && pwd)"
pkill -f "^java .*$(basename "$jar")"; sleep 2
data=/tmp/abdata; d=/tmp/ab/$tag; rm -rf "$d" $data; mkdir -p "$d"; cd "$d" || exit 1
printf "demo=true\nhttp.port=18081\nedge.ip.exempt=127.0.0.1\n$extra" > venue.properties
F=$(sed -n 's/^venue.jvm.flags=//p' "$root/tuning/jvm-flags.properties")
# shellcheck disable=SC2086
java $F $aopts -jar "$jar" --config venue.properties --data $data > app.out 2>&1 &
sleep 10
pid=$(pgrep -f "^java .*$jar")
t0=$(awk '{print $14+$15}' /proc/$pid/stat); sleep 5; t1=$(awk '{print $14+$15}' /proc/$pid/stat)
echo "$tag idle CPU $(( (t1-t0)/5 ))% of a core"
# shellcheck disable=SC2086
GENERATOR_GC_FLAGS="$lopts" "$root/bench/results/ab-loadgen.sh" loadgen --url http://127.0.0.1:18081 \
  --operator-key $data/keys/operator.key --rates "$rates" --duration "${DUR:-10}" --accounts "${ACC:-300}" ${LGX:-} \
  --out lg.json > lg.out 2>&1
grep "/s " lg.out | sed 's/ *answered.*latency/ latency/' | sed "s/^/$tag /"
pkill -f "^java .*$jar"; sleep 1
