#!/usr/bin/env python3
"""The import's memory grows by tens of bytes a file, not hundreds: the real agent imports trees of
5,000 and 60,000 empty files (1,000 a folder, names like ImageNet's "n00000042_00017.JPEG"), then
re-runs each import (nothing to copy), and the peak RSS of each run (taken at the agent's exit) gives the
cost of one more file. Before the scan's items were packed and the pending batch bounded, a file cost about 700 bytes fresh and 600 on a re-run; a million files must stay under
64 MiB (docs/performance.md has the million-file run).

  memory_per_file.py --agent build/linux/linux/tfwsl-agent --peak-rss build/linux/tests/tfwsl_peak_rss [--work DIR]
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile

from dataset_test_support import check

SMALL, LARGE = 5_000, 60_000
PER_FOLDER = 1_000
# Bytes of peak RSS per added file, at most. The difference of two peaks of the same program cancels
# what does not grow with the tree (the binary, glibc's arenas, thread stacks, the 4 KiB page
# rounding of each); what is left is the scan's packed items (about 20 bytes and the name's ~20),
# the manifest index on a re-run (48 bytes a record, docs/datasets.md), and on a fresh import the
# bounded buffers still filling at this size (65,536 names waiting for their stat, 2,048 copies
# waiting for their commit), so a file costs more here than over a million (48 bytes fresh). With
# the peak taken at the agent's exit, on the 2-core build machine beside a loaded build: 95-116
# fresh, 52-64 on a re-run (docs/performance.md). Before the scan's items were packed, about 700 and
# 600: the limits leave room for run-to-run noise and fail on any return to a per-file struct.
FRESH_LIMIT, RERUN_LIMIT = 150, 100


def make_tree(root, count):
    for i in range(count):
        folder = os.path.join(root, "train", "n%08d" % (i // PER_FOLDER))
        if i % PER_FOLDER == 0:
            os.makedirs(folder)
        os.close(os.open(os.path.join(folder, "n%08d_%05d.JPEG" % (i // PER_FOLDER, i % PER_FOLDER)),
                         os.O_CREAT | os.O_WRONLY, 0o644))


def peak_rss_kib(peak_rss, agent, source, target):
    """The agent's peak RSS, as the kernel recorded it when the agent exited (wait4's ru_maxrss,
    through tests/helpers/peak_rss.cpp). A poll of /proc/PID/status could miss a run that ends
    between two polls (a re-run of the small tree takes a few ms: it read 4 KiB, the figure of no
    process at all). ru_maxrss also holds the forking parent's high-water mark at the fork, so the
    parent is that small launcher, never this interpreter, and the figure must stand well above the
    launcher's own mark to be the agent's."""
    with tempfile.NamedTemporaryFile("r", prefix="tfwsl-peak-") as figures:
        child = subprocess.run([peak_rss, figures.name, agent, "dataset", "import", "--source", source, "--target",
                                target, "--json"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        line = figures.read().split()
    fields = dict(item.split("=", 1) for item in line)
    error = child.stderr.decode(errors="replace")
    check(child.returncode == 0 and fields.get("exit") == "0", f"import of {source} exited {child.returncode}: {error[-2000:]}")
    peak, launcher = int(fields.get("child_peak_kib", 0)), int(fields.get("launcher_hwm_kib", 0))
    check(launcher > 0 and peak > 2 * launcher,
          f"the figure {peak} KiB is the agent's, not its launcher's ({launcher} KiB)")
    return peak


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--agent", required=True)
    parser.add_argument("--peak-rss", required=True, help="tests/helpers/peak_rss.cpp, built")
    parser.add_argument("--work", help="folder for the trees (default: a new temporary folder)")
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="tfwsl-memory-", dir=args.work)
    try:
        rss = {}
        for count in (SMALL, LARGE):
            source, target = os.path.join(work, f"s{count}"), os.path.join(work, f"t{count}")
            make_tree(source, count)
            rss[count] = tuple(peak_rss_kib(args.peak_rss, args.agent, source, target) for _ in range(2))
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
