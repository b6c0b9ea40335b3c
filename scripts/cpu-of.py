#!/usr/bin/env python3
"""CPU time of a whole process tree: scripts/cpu-of.py <command…>

Runs the command as a child subreaper (Linux prctl), so every descendant, even one that daemonises or is
orphaned when its parent exits (a teammate outliving its lead), is reaped here and counted in RUSAGE_CHILDREN.
Prints one line to stderr: wall time, user + system CPU of the tree, peak RSS of its largest process, load.
Used to tell a test that is slow because it was starved of CPU (its CPU time is small next to its deadline)
from one whose operation is heavy or hung. `/usr/bin/time` alone misses reparented descendants."""
import ctypes
import os
import resource
import subprocess
import sys
import time

if len(sys.argv) < 2:
    sys.exit("usage: cpu-of.py <command…>")
PR_SET_CHILD_SUBREAPER = 36
ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
t0 = time.time()
rc = subprocess.Popen(sys.argv[1:]).wait()
wall_main = time.time() - t0
while True:  # reap the orphans adopted meanwhile, until none is left
    try:
        os.wait()
    except ChildProcessError:
        break
ru = resource.getrusage(resource.RUSAGE_CHILDREN)
load = open("/proc/loadavg").read().split()[0]
sys.stderr.write(
    f"cpu-of: rc={rc} wall={wall_main:.1f}s (last descendant {time.time() - t0:.1f}s) "
    f"cpu={ru.ru_utime + ru.ru_stime:.1f}s (user {ru.ru_utime:.1f}, sys {ru.ru_stime:.1f}) "
    f"maxrss={ru.ru_maxrss // 1024}MB load={load}\n"
)
sys.exit(rc)
