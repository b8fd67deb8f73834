#!/bin/bash
# Used on 2026-11-28 for generator-client-ab.txt: JAR an appliance jar, CLI a venue-cli.jar; EXTRA adds venue.properties lines (e.g. "idle.strategy=backoff\n").
# environment: RUNS (generator runs per appliance, 2), RATES (5000), DUR (5), CEIL (150000)
# one fresh appliance (JAR) per arm, the generator from CLI run RUNS times against it; prints each run's lines
jar=$1; cli=$2; root="$(cd "$(dirname "$0")/../.." && pwd)"
pkill -f "^java .*$jar"; sleep 2
data=/tmp/gadata; d=/tmp/ga/$(basename "$cli"); rm -rf $d $data; mkdir -p $d; cd $d
printf "demo=true\nhttp.port=18081\nedge.ip.exempt=127.0.0.1\n$EXTRA" > venue.properties
F=$(sed -n 's/^venue.jvm.flags=//p' $root/tuning/jvm-flags.properties)
java $F -XX:+UseZGC -Xms1g -Xmx1g -XX:+AlwaysPreTouch -Dagrona.disable.bounds.checks=true -jar $jar --config venue.properties --data $data > app.out 2>&1 &
sleep 10
for i in $(seq 1 ${RUNS:-2}); do
  java $F -XX:+UseZGC -jar $cli loadgen --url http://127.0.0.1:18081 --operator-key $data/keys/operator.key --rates ${RATES:-5000} --duration ${DUR:-5} --accounts 650 --ceiling 64 --ceiling-actions ${CEIL:-150000} --out lg$i.json > lg$i.out 2>&1
  grep -E "^ceiling|/s " lg$i.out | sed "s/^/$(basename $cli) run $i: /"
done
pkill -f "^java .*$jar"; sleep 1
