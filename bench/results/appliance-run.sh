# Sourced by the scripts here that run one fresh demo appliance and split its CPU by thread.
# start_appliance JAR PORT DATA [LINES]: a demo appliance from JAR on PORT with its data in DATA (the configuration in
# ./venue.properties, LINES and $EXTRA added; HEAP replaces the heap flags of tuning/jvm-flags.properties, JVM_EXTRA
# adds JVM flags), its log in ./app.out, once it serves; sets F (the JVM flags) and app (its pid). The caller kills it.
start_appliance() {
  printf "demo=true\nhttp.port=$2\nedge.ip.exempt=127.0.0.1\n${4:-}${EXTRA:-}" > venue.properties
  F=$(sed -n 's/^venue.jvm.flags=//p' "$root/tuning/jvm-flags.properties")
  java $F -XX:+UseZGC ${HEAP-$(sed -n 's/^venue.jvm.appliance.heap=//p' "$root/tuning/jvm-flags.properties")} ${JVM_EXTRA:-} -Dagrona.disable.bounds.checks=true -jar "$1" \
    --config venue.properties --data "$3" > app.out 2>&1 &
  app=$!
  for _ in $(seq 1 60); do grep -q "demo venue set up\|serving" app.out 2>/dev/null && break; sleep 1; done
  sleep 2
}
# ticks PID: one line per thread, "name utime stime" in clock ticks (a thread that ends while it is read is left out:
# its ticks are lost either way, /proc keeps no dead thread's).
ticks() { for t in /proc/$1/task/*; do
  { name=$(tr ' ' '_' < "$t/comm") && stat=$(sed 's/.*) //' "$t/stat"); } 2>/dev/null || continue
  set -- $stat; echo "$name ${12} ${13}"; done; }
# cpu_per LABEL UNIT COUNT BEFORE AFTER MIN: the CPU between two ticks files, by thread name (threads of one name
# summed), in microseconds per UNIT (COUNT of them); threads under MIN us are not listed; then the total.
cpu_per() {
python3 - "$1" "$2" "$3" "$4" "$5" "$6" "$(getconf CLK_TCK)" <<'PY'
import sys, collections, re
label, unit, count, before, after, least, hz = sys.argv[1], sys.argv[2], max(1, int(sys.argv[3])), sys.argv[4], \
    sys.argv[5], float(sys.argv[6]), int(sys.argv[7])
def load(f):
    d = collections.Counter()
    for line in open(f):
        name, u, s = line.split()
        d[re.sub(r'[-_#]?\d+$', '', name)] += int(u) + int(s)
    return d
b, a = load(before), load(after)
total = 0
for k in sorted(a, key=lambda k: -(a[k] - b.get(k, 0))):
    us = (a[k] - b.get(k, 0)) * 1e6 / hz / count
    total += us
    if us >= least:
        print(f"{label}: {k:20s} {us:8.2f} us/{unit}")
print(f"{label}: {'total':20s} {total:8.2f} us/{unit}")
PY
}
