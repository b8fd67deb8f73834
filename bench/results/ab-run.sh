#!/bin/bash
# usage: abrun.sh TAG JAR "APP_JVM_OPTS" "LG_JVM_OPTS" EXTRA RATES
tag=$1; jar=$2; aopts=$3; lopts=$4; extra=$5; rates=$6
pkill -f "^java .*(jar-old|jar-new|venue-appliance).jar"; sleep 2
data=/tmp/abdata; d=/tmp/ab/$tag; rm -rf $d $data; mkdir -p $d; cd $d
printf "demo=true\nhttp.port=18081\nedge.ip.exempt=127.0.0.1\n$extra" > venue.properties
F=$(sed -n 's/^venue.jvm.flags=//p' /work/main/tuning/jvm-flags.properties)
java $F $aopts -jar $jar --config venue.properties --data $data > app.out 2>&1 &
sleep 10
pid=$(pgrep -f "^java .*$jar")
t0=$(awk '{print $14+$15}' /proc/$pid/stat); sleep 5; t1=$(awk '{print $14+$15}' /proc/$pid/stat)
echo "$tag idle CPU $(( (t1-t0)/5 ))% of a core"
JAVA_TOOL_OPTIONS="$lopts" /work/main/tools/bin/venue loadgen --url http://127.0.0.1:18081 --operator-key $data/keys/operator.key --rates $rates --duration 10 --accounts 300 --out lg.json > lg.out 2>&1
grep "/s " lg.out | sed 's/ *answered.*latency/ latency/' | sed "s/^/$tag /"
pkill -f "^java .*(jar-old|jar-new|venue-appliance).jar"; sleep 1
