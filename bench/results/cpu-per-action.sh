#!/bin/bash
# The appliance's CPU per action at its closed-loop ceiling, by thread, next to the signature recovery's own cost.
# usage: cpu-per-action.sh APPLIANCE_JAR CLI_JAR LABEL   (environment: COMPACT=N sends compact requests of N orders;
#        CEIL actions in the measured ceiling run, 100000; EXTRA adds venue.properties lines)
# One fresh demo appliance; the generator funds its traders and runs WARM times (2) to warm up, then once more while the CPU time
# of every appliance thread (/proc/<pid>/task/*/stat, utime+stime) is read before and after; prints one line per
# thread name (threads of one name summed) in microseconds of CPU per action, and the total.
set -euo pipefail
jar=$1; cli=$2; label=$3; root="$(cd "$(dirname "$0")/../.." && pwd)"
port=18091; data=/tmp/cpa-data; work=/tmp/cpa-$label; rm -rf "$data" "$work"; mkdir -p "$work"; cd "$work"
printf "demo=true\nhttp.port=$port\nedge.ip.exempt=127.0.0.1\n${EXTRA:-}" > venue.properties
F=$(sed -n 's/^venue.jvm.flags=//p' "$root/tuning/jvm-flags.properties")
java $F -XX:+UseZGC -Xms1g -Xmx1g -XX:+AlwaysPreTouch -Dagrona.disable.bounds.checks=true -jar "$jar" \
  --config venue.properties --data "$data" > app.out 2>&1 &
app=$!
trap 'kill $app 2>/dev/null || true' EXIT
for _ in $(seq 1 60); do grep -q "demo venue set up\|serving" app.out 2>/dev/null && break; sleep 1; done
sleep 2
gen() { java $F -XX:+UseZGC -jar "$cli" loadgen --url http://127.0.0.1:$port --operator-key "$data/keys/operator.key" \
  --rates 1000 --duration 2 --accounts 650 --ceiling 64 --ceiling-actions "${CEIL:-100000}" \
  $( [ "${COMPACT:-0}" != 0 ] && echo --compact "$COMPACT" ) --out "$1.json" > "$1.out" 2>&1; }
# a thread that ends while it is read is left out (its ticks are lost either way: /proc keeps no dead thread's)
ticks() { for t in /proc/$app/task/*; do
  { name=$(tr ' ' '_' < "$t/comm") && stat=$(sed 's/.*) //' "$t/stat"); } 2>/dev/null || continue
  set -- $stat; echo "$name ${12} ${13}"; done; }
for w in $(seq 1 "${WARM:-2}"); do gen "warm$w"; done
ticks > before.txt
gen measured
ticks > after.txt
# what the measured run had answered: its phases' accepted and refused actions, and a deposit per trader
actions=$(python3 -c 'import re,sys; t=open(sys.argv[1]).read(); print(650 + sum(int(n.replace(",", "")) for n in re.findall(r"ok ([0-9,]+)", t)) + sum(int(n.replace(",", "")) for r in re.findall(r"refused \{([^}]*)\}", t) for n in re.findall(r"=([0-9,]+)", r)))' measured.out)
echo "$label: $actions actions answered in the measured run"
grep -E "^ceiling|/s " measured.out | sed "s/^/$label: /"
hz=$(getconf CLK_TCK)
python3 - "$label" "$hz" "$actions" before.txt after.txt <<'PY'
import sys, collections, re
label, hz, actions = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
def load(f):
    d = collections.Counter()
    for line in open(f):
        name, u, s = line.split()
        d[re.sub(r'[-_#]?\d+$', '', name)] += int(u) + int(s)
    return d
b, a = load(sys.argv[4]), load(sys.argv[5])
total = 0
for k in sorted(a, key=lambda k: -(a[k] - b.get(k, 0))):
    us = (a[k] - b.get(k, 0)) * 1e6 / hz / actions
    total += us
    if us >= 0.5:
        print(f"{label}: {k:20s} {us:8.1f} us/action")
print(f"{label}: {'total':20s} {total:8.1f} us/action")
PY
