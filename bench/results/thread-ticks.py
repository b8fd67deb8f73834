#!/usr/bin/env python3
# thread-ticks.py PID OUT [METRICS_URL] [PERIOD_S]: every PERIOD_S (0.2) seconds until PID ends or this is killed,
# appends to OUT a line "T <unix seconds>", then one line per thread of PID, "name utime stime" in clock ticks (as
# appliance-run.sh's ticks), and with METRICS_URL a line "M <timed recoveries> <their CPU ns>" from the appliance's
# venue_verifier_recovery_* metrics, so that a window of a run can be cut out afterwards (window-cpu.py).
import os, sys, time, urllib.request
pid, out = sys.argv[1], sys.argv[2]
metrics = sys.argv[3] if len(sys.argv) > 3 and sys.argv[3] else None
period = float(sys.argv[4]) if len(sys.argv) > 4 else 0.2

def recoveries():
    values = {}
    try:
        for line in urllib.request.urlopen(metrics, timeout=2).read().decode().splitlines():
            if line.startswith("venue_verifier_recovery_"):
                values[line.split()[0]] = int(float(line.split()[1]))
    except OSError:
        return None
    if "venue_verifier_recovery_samples_total" not in values:
        return None
    return values["venue_verifier_recovery_samples_total"], values["venue_verifier_recovery_cpu_nanoseconds_total"]

with open(out, "w") as f:
    while os.path.exists(f"/proc/{pid}"):
        lines = [f"T {time.time():.3f}"]
        try:
            tasks = os.listdir(f"/proc/{pid}/task")
        except FileNotFoundError:
            break
        for t in tasks:
            try:
                with open(f"/proc/{pid}/task/{t}/stat") as s:
                    stat = s.read()
            except OSError:
                continue  # a thread that ended while it was read
            name = stat[stat.index("(") + 1:stat.rindex(")")].replace(" ", "_")
            fields = stat[stat.rindex(")") + 2:].split()
            lines.append(f"{name} {fields[11]} {fields[12]}")
        if metrics:
            timed = recoveries()
            if timed:
                lines.append(f"M {timed[0]} {timed[1]}")
        f.write("\n".join(lines) + "\n")
        f.flush()
        time.sleep(period)
