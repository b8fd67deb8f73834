#!/bin/bash
# async-profiler (CPU, or EV=alloc) of the appliance at the FIX lane's closed-loop ceiling: one fresh demo appliance
# (lanes=http,fix), FixLoadBench warmed twice (40,000 orders each), then profiled over CEIL orders (100000); prints the
# ceiling and each thread's share of the samples. ASYNC_PROFILER is the path of libasyncProfiler.so (async-profiler 4.x,
# downloaded apart: it is not part of the build).
# usage: ASYNC_PROFILER=/path/libasyncProfiler.so [SESSIONS=1 WINDOW=64 EV=cpu] fix-profile.sh APPLIANCE_JAR BENCH_JAR LABEL
set -euo pipefail
jar=$(realpath "$1"); benchjar=$(realpath "$2"); label=$3; root="$(cd "$(dirname "$0")/../.." && pwd)"
port=${PORT:-18095}; fixport=${FIX_PORT:-19495}; data=/tmp/fix-profile-data; work=/tmp/fix-profile-$label
rm -rf "$data" "$work"; mkdir -p "$work"; cd "$work"
. "$root/bench/results/appliance-run.sh"
start_appliance "$jar" "$port" "$data" \
  "lanes=http,fix\nfix.port=$fixport\nlimits.account.actions=1000000\nfix.logon.attempts.per.minute=1000\n"
trap 'kill $app 2>/dev/null || true' EXIT
run() { java $F -cp "$benchjar" io.venue.transport.fix.FixLoadBench --url http://127.0.0.1:$port \
    --operator-key "$data/keys/operator.key" --fix 127.0.0.1:$fixport --rates 1000 --duration 2 \
    --ceiling "$1" --sessions "${SESSIONS:-1}" --window "${WINDOW:-64}" > "$2.out" 2>&1; }
run 40000 warm1; run 40000 warm2
jcmd $app JVMTI.agent_load "$ASYNC_PROFILER" "\"start,event=${EV:-cpu},interval=1ms,threads\"" > /dev/null
run "${CEIL:-100000}" measured
jcmd $app JVMTI.agent_load "$ASYNC_PROFILER" "\"stop,collapsed,threads,file=$work/prof.collapsed\"" > /dev/null
grep ceiling measured.out | sed "s/^/$label: /"
python3 - "$work/prof.collapsed" "$label" <<'PY'
import collections, re, sys
by = collections.Counter()
for line in open(sys.argv[1]):
    stack, n = line.rsplit(' ', 1)
    by[re.sub(r'[-_#]?\d+( tid=\d+)?\]$', '', stack.split(';')[0]).strip('[')] += int(n)
total = sum(by.values())
print(f"{sys.argv[2]}: {total} samples: " + ", ".join(f"{t.strip()} {n}" for t, n in by.most_common(7)))
PY
