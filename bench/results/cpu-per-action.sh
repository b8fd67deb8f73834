#!/bin/bash
# The appliance's CPU per action at its closed-loop ceiling, by thread, next to the signature recovery's own cost.
# usage: cpu-per-action.sh APPLIANCE_JAR CLI_JAR LABEL   (environment: COMPACT=N sends compact requests of N orders;
#        CEIL actions in the measured ceiling run, 100000; EXTRA adds venue.properties lines; ACCOUNTS traders, 650;
#        INFLIGHT requests in flight at the ceiling, 64; LOADGEN adds load generator options, e.g. "--bsl-tcp HOST:PORT"
#        with EXTRA="lanes=http,bsl-tcp\nbsl.tcp.port=PORT\n" sends the compact requests over BSL Direct TCP)
# One fresh demo appliance; the generator funds its traders and runs WARM times (2) to warm up, then once more while the CPU time
# of every appliance thread (/proc/<pid>/task/*/stat, utime+stime) is read before and after; prints one line per
# thread name (threads of one name summed) in microseconds of CPU per action, and the total; then the CPU of one signature
# recovery in the same run (the verifiers time one in 32 in their thread's CPU time: the metrics'
# venue_verifier_recovery_*) and the total's ratio to it. The run's count is of the actions the appliance answered, the
# generator's warm-up requests included; the whole run also holds the generator's signing, while the appliance idles.
# So the same is printed for the ceiling's measured seconds alone (thread-ticks.py samples every thread's CPU every
# 0.2 s; window-cpu.py cuts out the phase's seconds before the generator wrote its JSON), per action answered in them.
set -euo pipefail
# wakes PID: one line per thread, "name voluntary_context_switches"
wakes() { for t in /proc/$1/task/*; do
  { name=$(tr ' ' '_' < "$t/comm") && n=$(sed -n 's/^voluntary_ctxt_switches:\s*//p' "$t/status"); } 2>/dev/null || continue
  echo "$name $n"; done; }
jar=$1; cli=$2; label=$3; root="$(cd "$(dirname "$0")/../.." && pwd)"
port=18091; data=/tmp/cpa-data; work=/tmp/cpa-$label; rm -rf "$data" "$work"; mkdir -p "$work"; cd "$work"
. "$root/bench/results/appliance-run.sh"
start_appliance "$jar" "$port" "$data"
trap 'kill $app 2>/dev/null || true' EXIT
gen() { java $F -XX:+UseZGC -jar "$cli" loadgen --url http://127.0.0.1:$port --operator-key "$data/keys/operator.key" \
  --rates 1000 --duration 2 --accounts "${ACCOUNTS:-650}" --ceiling "${INFLIGHT:-64}" --ceiling-actions "${CEIL:-100000}" \
  $( [ "${COMPACT:-0}" != 0 ] && echo --compact "$COMPACT" ) ${LOADGEN:-} --out "$1.json" > "$1.out" 2>&1; }
for w in $(seq 1 "${WARM:-2}"); do gen "warm$w"; done
metrics() { curl -s "http://127.0.0.1:$port/api/v1/admin/metrics" | grep '^venue_verifier_recovery' > "$1" || true; }
metrics recovery-before.txt
ticks $app > before.txt
wakes $app > wakes-before.txt
python3 "$root/bench/results/thread-ticks.py" $app series.txt "http://127.0.0.1:$port/api/v1/admin/metrics" & sampler=$!
gen measured
# the generator writes its JSON as the ceiling phase ends (before it closes its connections and exits)
ended=$(python3 -c 'import os,sys; print(os.path.getmtime(sys.argv[1]))' measured.json)
kill $sampler; wait $sampler 2>/dev/null || true
ticks $app > after.txt
wakes $app > wakes-after.txt
metrics recovery-after.txt
# what the measured run had the appliance answer: a deposit per trader, and every request its phases sent (warm-up
# included); and the ceiling phase's measured seconds and answers
actions=$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print(r["traders"] + sum(p["sent"] for p in r["runs"]) * r["ordersPerRequest"])' measured.json)
read -r ceil_seconds ceil_answered < <(python3 -c 'import json,sys; p=[p for p in json.load(open(sys.argv[1]))["runs"] if p["mode"] == "ceiling"][0]; r=json.load(open(sys.argv[1])); print(p["seconds"], p["answered"] * r["ordersPerRequest"])' measured.json)
echo "$label: $actions actions answered in the measured run"
grep -E "^ceiling|/s " measured.out | sed "s/^/$label: /"
cpu_per "$label" action "$actions" before.txt after.txt 0.5
# how often each busy thread gave up its core (parked or blocked: /proc's voluntary context switches) per action
python3 - "$label" "$actions" wakes-before.txt wakes-after.txt <<'PY' || true
import collections, re, sys
label, count = sys.argv[1], max(1, int(sys.argv[2]))
def load(f):
    d = collections.Counter()
    for line in open(f):
        name, n = line.split()
        d[re.sub(r'[-_#]?\d+$', '', name)] += int(n)
    return d
b, a = load(sys.argv[3]), load(sys.argv[4])
for k in sorted(a, key=lambda k: -(a[k] - b.get(k, 0)))[:5]:
    print(f"{label}: {k:20s} {(a[k] - b.get(k, 0)) / count:8.3f} parks/action (whole run)")
PY
python3 "$root/bench/results/window-cpu.py" series.txt "$label" "$ended" "$ceil_seconds" "$ceil_answered"
python3 - "$label" recovery-before.txt recovery-after.txt <<'PY'
import sys
label = sys.argv[1]
def load(f): return {l.split()[0]: float(l.split()[1]) for l in open(f) if l.strip()}
b, a = load(sys.argv[2]), load(sys.argv[3])
if "venue_verifier_recovery_samples_total" not in a:
    sys.exit(f"{label}: this build does not time its recoveries (no venue_verifier_recovery_* metrics)")
n = a["venue_verifier_recovery_samples_total"] - b["venue_verifier_recovery_samples_total"]
ns = a["venue_verifier_recovery_cpu_nanoseconds_total"] - b["venue_verifier_recovery_cpu_nanoseconds_total"]
rec = ns / max(n, 1) / 1000
print(f"{label}: recovery in the whole run {rec:8.2f} us ({int(n)} timed)")
PY
