#!/usr/bin/env python3
"""Fault injection with real processes: kill -9 the importer at random moments over a tree of
5,000+ files (two of 64 MiB and more), resume, and check after every kill that no file under its
final name is partial; with --mode move, that every file exists whole in the source or in the
target. At the end the target must equal the source (sha256 via hashlib), the source untouched.

  fault_injection.py --agent build/linux/tfwsl-agent --mode copy|move [--runs 20] [--seed 1]
"""

import argparse
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time

from dataset_test_support import check, import_command, make_tree, snapshot


def check_target_whole(target, expected):
    """Every file under a final name in the target is complete and equal to the source's."""
    seen = snapshot(target)
    for rel, entry in seen.items():
        check(rel in expected, f"unexpected file in the target: {rel!r}")
        check(entry == expected[rel], f"partial or wrong file under its final name: {rel!r}")
    return seen


def check_move_invariant(source, target, expected):
    in_target = check_target_whole(target, expected)
    in_source = snapshot(source)
    for rel, entry in in_source.items():
        check(rel in expected and entry == expected[rel], f"source file changed or appeared: {rel!r}")
    for rel, entry in expected.items():
        check(in_source.get(rel) == entry or in_target.get(rel) == entry,
              f"file lost: {rel!r} is whole neither in the source nor in the target")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--agent", required=True)
    parser.add_argument("--mode", choices=["copy", "move"], default="copy")
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--seed", type=int, default=20261129)
    parser.add_argument("--files", type=int, default=5000)
    parser.add_argument("--big-mb", type=int, default=64)
    args = parser.parse_args()

    rng = random.Random(args.seed + (1 if args.mode == "move" else 0))
    work = tempfile.mkdtemp(prefix=f"tfwsl-fault-{args.mode}-", dir=os.environ.get("TMPDIR", "/tmp"))
    source, target = os.path.join(work, "source"), os.path.join(work, "target")
    extra = ["--move"] if args.mode == "move" else []
    try:
        make_tree(source, args.seed, files=args.files, big_mb=args.big_mb)
        expected = snapshot(source, with_mtime=False)
        print(f"tree: {len(expected)} entries in {source}", flush=True)

        # Calibrate the kill window on one uninterrupted copy of this tree on this machine.
        started = time.monotonic()
        calibration = subprocess.run(import_command(args.agent, source, os.path.join(work, "calibrate")),
                                     capture_output=True)
        full = time.monotonic() - started
        check(calibration.returncode == 0, f"calibration import failed: {calibration.stderr.decode(errors='replace')}")
        shutil.rmtree(os.path.join(work, "calibrate"))
        print(f"one full import takes {full:.2f} s; kills land in [0.05, {0.7 * full:.2f}] s", flush=True)

        killed_mid_run = completions = 0
        for run in range(1, args.runs + 1):
            delay = rng.uniform(0.05, max(0.1, 0.7 * full))
            process = subprocess.Popen(import_command(args.agent, source, target, *extra),
                                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            time.sleep(delay)
            was_running = process.poll() is None
            if was_running:
                os.kill(process.pid, signal.SIGKILL)
                killed_mid_run += 1
            _, err = process.communicate()
            if not was_running:
                check(process.returncode == 0, f"run {run}: import failed: {err.decode(errors='replace')}")
            if args.mode == "move":
                check_move_invariant(source, target, expected)
            else:
                check_target_whole(target, expected)
            in_target = len(snapshot(target)) if os.path.isdir(target) else 0
            print(f"run {run:2d}: {'killed' if was_running else 'finished before the kill'} at {delay:.2f} s "
                  f"with {in_target}/{len(expected)} entries in the target; invariants hold", flush=True)
            if not was_running:  # a complete import: check it, then start over so later kills land mid-copy
                completions += 1
                check(snapshot(target) == expected, f"run {run}: completed target differs from the source")
                shutil.rmtree(target)
                if args.mode == "move":
                    shutil.rmtree(source)
                    make_tree(source, args.seed, files=args.files, big_mb=args.big_mb)
                    expected = snapshot(source)

        final = subprocess.run(import_command(args.agent, source, target, *extra, "--verify"), capture_output=True)
        check(final.returncode == 0, f"final resume failed ({final.returncode}): {final.stderr.decode(errors='replace')}")
        got = snapshot(target)
        check(got == expected, "after the final resume the target differs from the source")
        leftovers = os.listdir(os.path.join(target, ".tfwsl-import", "staging"))
        check(not leftovers, f"temporary files left in staging: {leftovers[:5]}")
        if args.mode == "move":
            remaining = snapshot(source)
            check(not remaining, f"--move left {len(remaining)} source entries: {list(remaining)[:5]}")
        else:
            check(snapshot(source) == expected, "the source changed")
        print(f"PASS: {args.runs} runs, {killed_mid_run} killed mid-run, {completions} completed before the kill; "
              f"target byte-identical to the source ({len(expected)} entries)")
        return 0
    except AssertionError as failure:
        print(f"FAIL: {failure}", file=sys.stderr)
        return 1
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
