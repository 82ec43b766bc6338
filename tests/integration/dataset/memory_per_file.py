#!/usr/bin/env python3
"""The import's memory grows by tens of bytes a file, not hundreds: the real agent imports trees of
5,000 and 60,000 empty files (1,000 a folder, names like ImageNet's "n00000042_00017.JPEG"), then
re-runs each import (nothing to copy), and the peak RSS of each run (the agent's VmHWM) gives the
cost of one more file. Before the scan's items were packed and the pending batch bounded, a file cost about 700 bytes fresh and 600 on a re-run; a million files must stay under
64 MiB (docs/performance.md has the million-file run).

  memory_per_file.py --agent build/linux/linux/tfwsl-agent [--work DIR]
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

from dataset_test_support import check

SMALL, LARGE = 5_000, 60_000
PER_FOLDER = 1_000
# Bytes of peak RSS per added file, at most. Measured on the 2-core build machine: 96-105 fresh and
# 61-64 on a re-run. At this size the bounded buffers are still filling (up to 65,536 listed names
# wait for their stat, 2,048 copies for their commit), so a file costs more here than over a million
# (48 bytes fresh: 20 for the packed item, about 20 for its name); before the change, about 700 and
# 600. The limits leave room for run-to-run noise and fail on any return to a per-file struct.
FRESH_LIMIT, RERUN_LIMIT = 150, 100


def make_tree(root, count):
    for i in range(count):
        folder = os.path.join(root, "train", "n%08d" % (i // PER_FOLDER))
        if i % PER_FOLDER == 0:
            os.makedirs(folder)
        os.close(os.open(os.path.join(folder, "n%08d_%05d.JPEG" % (i // PER_FOLDER, i % PER_FOLDER)),
                         os.O_CREAT | os.O_WRONLY, 0o644))


def peak_rss_kib(agent, source, target):
    """The agent's own high-water RSS (VmHWM), read while it runs. Not wait4's ru_maxrss: Linux
    carries the forking parent's high-water mark across exec, so a child of this Python process
    reports at least the interpreter's own RSS."""
    child = subprocess.Popen([agent, "dataset", "import", "--source", source, "--target", target, "--json"],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    peak = 0
    while child.poll() is None:
        try:
            with open(f"/proc/{child.pid}/status") as status:
                for line in status:
                    if line.startswith("VmHWM:"):
                        peak = max(peak, int(line.split()[1]))
        except (FileNotFoundError, ProcessLookupError):
            pass
        time.sleep(0.02)
    error = child.stderr.read().decode(errors="replace")
    check(child.returncode == 0, f"import of {source} exited {child.returncode}: {error[-2000:]}")
    check(peak > 0, "the agent's VmHWM could be read")
    return peak


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--agent", required=True)
    parser.add_argument("--work", help="folder for the trees (default: a new temporary folder)")
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="tfwsl-memory-", dir=args.work)
    try:
        rss = {}
        for count in (SMALL, LARGE):
            source, target = os.path.join(work, f"s{count}"), os.path.join(work, f"t{count}")
            make_tree(source, count)
            rss[count] = (peak_rss_kib(args.agent, source, target), peak_rss_kib(args.agent, source, target))
            check(len(os.listdir(os.path.join(target, "train"))) == count // PER_FOLDER, "every folder imported")
            shutil.rmtree(source)
            shutil.rmtree(target)
        added = LARGE - SMALL
        fresh = (rss[LARGE][0] - rss[SMALL][0]) * 1024 / added
        rerun = (rss[LARGE][1] - rss[SMALL][1]) * 1024 / added
        print(f"peak RSS, KiB: {SMALL} files {rss[SMALL][0]} fresh / {rss[SMALL][1]} re-run; "
              f"{LARGE} files {rss[LARGE][0]} / {rss[LARGE][1]}")
        print(f"per added file: {fresh:.0f} bytes fresh (limit {FRESH_LIMIT}), {rerun:.0f} on a re-run "
              f"(limit {RERUN_LIMIT})")
        check(fresh <= FRESH_LIMIT, f"a fresh import costs {fresh:.0f} bytes a file, over {FRESH_LIMIT}")
        check(rerun <= RERUN_LIMIT, f"a re-run costs {rerun:.0f} bytes a file, over {RERUN_LIMIT}")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print("ok")


if __name__ == "__main__":
    sys.exit(main())
