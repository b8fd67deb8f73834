#!/usr/bin/env python3
# window-cpu.py TICKS LABEL END SECONDS COUNT: the CPU of each thread name (threads of one name summed) between the
# snapshots of TICKS (thread-ticks.py) nearest to END - SECONDS and to END (unix seconds), in microseconds per one of
# COUNT, and the total; the window's true length is printed beside the one asked for. With the recovery lines of
# thread-ticks.py: one recovery's CPU in the same window, and the total's ratio to it.
import collections, os, re, sys
path, label, end, seconds, count = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4]), int(sys.argv[5])
hz = os.sysconf("SC_CLK_TCK")
snaps, cur = [], None
for line in open(path):
    if line.startswith("T "):
        cur = (float(line.split()[1]), collections.Counter(), []); snaps.append(cur)
    elif line.startswith("M "):
        cur[2].extend(int(v) for v in line.split()[1:])
    elif cur is not None:
        name, u, s = line.split()
        cur[1][re.sub(r'[-_#]?\d+$', '', name)] += int(u) + int(s)
near = lambda t: min(snaps, key=lambda snap: abs(snap[0] - t))
(t0, b, rb), (t1, a, ra) = near(end - seconds), near(end)
total = 0.0
rows = []
for k in a:
    us = (a[k] - b.get(k, 0)) * 1e6 / hz / max(count, 1)
    total += us
    rows.append((us, k))
for us, k in sorted(rows, reverse=True):
    if us >= 0.5:
        print(f"{label}: {k:20s} {us:8.2f} us/action (ceiling window)")
print(f"{label}: {'total':20s} {total:8.2f} us/action (ceiling window: {t1 - t0:.2f} s of the run's {seconds:.2f} s)")
if ra and rb and ra[0] > rb[0]:
    recovery = (ra[1] - rb[1]) / (ra[0] - rb[0]) / 1000
    print(f"{label}: {'recovery':20s} {recovery:8.2f} us ({ra[0] - rb[0]} timed in the window); "
          f"the total is {total / recovery:.2f} recoveries")
