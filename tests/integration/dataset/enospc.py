#!/usr/bin/env python3
"""ENOSPC on a small filesystem this test mounts and removes (a size-limited tmpfs, else a
loop-mounted ext4 image): the preflight refuses with a clear message; forced past the preflight, the
import stops cleanly at ENOSPC (no temporary file left, finished files intact, source untouched);
after space is freed the same command resumes and completes.

  enospc.py --agent build/linux/tfwsl-agent        (needs root for mount; exit 77 = skipped)
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

from dataset_test_support import check, run_import, snapshot

SKIP = 77


def mount_small_fs(mountpoint, work, size_mb):
    tried = []
    r = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size_mb}m", "tmpfs", mountpoint], capture_output=True)
    if r.returncode == 0:
        return "tmpfs", None
    tried.append(f"tmpfs: {r.stderr.decode(errors='replace').strip()}")
    image = os.path.join(work, "small.ext4")
    with open(image, "wb") as f:
        f.truncate(size_mb << 20)
    r = subprocess.run(["mkfs.ext4", "-q", "-F", image], capture_output=True)
    if r.returncode == 0:
        r = subprocess.run(["mount", "-o", "loop", image, mountpoint], capture_output=True)
        if r.returncode == 0:
            return "ext4 loop image", image
    tried.append(f"ext4 loop: {r.stderr.decode(errors='replace').strip()}")
    return None, "; ".join(tried)


def move_after_enospc(agent, work, mountpoint, source, expected):
    """--move stopped by ENOSPC: the files moved so far are verified in the target, the message
    says how many there are (never "the source is untouched"), and a re-run continues."""
    moving = os.path.join(work, "moving")
    shutil.copytree(source, moving, symlinks=True)
    target = os.path.join(mountpoint, "moved")
    filler = os.path.join(mountpoint, "filler")
    free = shutil.disk_usage(mountpoint).free
    with open(filler, "wb") as f:
        f.write(b"\0" * max(0, free - (6 << 20)))  # about 6 MiB left: about half of the data fits
    r = run_import(agent, moving, target, "--move", "--skip-space-check", "--jobs", "2")
    err = r.stderr.decode(errors="replace")
    check(r.returncode == 2, f"ENOSPC --move run: expected exit 2, got {r.returncode}: {err}")
    check("untouched" not in err, f"--move after ENOSPC must not promise an untouched source: {err}")
    left = snapshot(moving)
    in_target = snapshot(target)
    gone = [rel for rel in expected if rel not in left]
    check(gone, "no file was moved before ENOSPC: the case is not exercised")
    for rel in gone:
        check(in_target.get(rel) == expected[rel][:2], f"{rel!r} left the source but is not whole in the target")
    check(f"{len(gone)} source file(s) were moved" in err, f"message does not count the {len(gone)} moved files: {err}")
    check("run the same command again" in err, f"message does not say how to continue: {err}")
    print(f"--move ENOSPC stop is truthful ({len(gone)} moved): {err.strip().splitlines()[-1][:200]}")
    os.unlink(filler)
    r = run_import(agent, moving, target, "--move")
    check(r.returncode == 0, f"--move resume failed ({r.returncode}): {r.stderr.decode(errors='replace')}")
    check(snapshot(target) == {rel: entry[:2] for rel, entry in expected.items()}, "moved target differs from the source")
    check(snapshot(moving) == {}, "--move resume left source files")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--agent", required=True)
    args = parser.parse_args()
    if os.geteuid() != 0:
        print("SKIP: mounting a small filesystem needs root (CI runs as root)")
        return SKIP
    work = tempfile.mkdtemp(prefix="tfwsl-enospc-", dir=os.environ.get("TMPDIR", "/tmp"))
    mountpoint = os.path.join(work, "small")
    os.mkdir(mountpoint)
    kind, why = mount_small_fs(mountpoint, work, 32)
    if kind is None:
        shutil.rmtree(work, ignore_errors=True)
        print(f"SKIP: cannot mount a small filesystem here: {why}")
        return SKIP
    try:
        print(f"small filesystem: {kind} of 32 MiB at {mountpoint}")
        source = os.path.join(work, "source")
        os.makedirs(os.path.join(source, "sub"))
        for i in range(12):
            with open(os.path.join(source, "sub" if i % 2 else "", f"chunk{i:02d}.bin"), "wb") as f:
                f.write(os.urandom(1 << 20))
        for i in range(100):
            with open(os.path.join(source, "sub", f"small{i:03d}.txt"), "wb") as f:
                f.write(os.urandom(3000 + i))
        expected = snapshot(source, with_mtime=True)
        # A filler leaves about 12 MiB free: less than the ~12.4 MiB of data.
        filler = os.path.join(mountpoint, "filler")
        with open(filler, "wb") as f:
            f.write(b"\0" * (20 << 20))
        target = os.path.join(mountpoint, "data")

        r = run_import(args.agent, source, target)
        err = r.stderr.decode(errors="replace")
        check(r.returncode == 2, f"preflight: expected exit 2, got {r.returncode}: {err}")
        check("not enough free space" in err and target in err, f"preflight message unclear: {err}")
        check(snapshot(target) == {}, "preflight refused but files were copied")
        print(f"preflight refuses: {err.strip().splitlines()[-1][:200]}")

        r = run_import(args.agent, source, target, "--skip-space-check")
        err = r.stderr.decode(errors="replace")
        check(r.returncode == 2, f"ENOSPC run: expected exit 2, got {r.returncode}: {err}")
        check("no space left" in err and "run the same command again" in err, f"ENOSPC message unclear: {err}")
        partial = snapshot(target, with_mtime=True)
        for rel, entry in partial.items():
            check(expected.get(rel) == entry, f"after ENOSPC, {rel!r} under its final name is not the source's")
        staging = os.path.join(target, ".tfwsl-import", "staging")
        check(os.listdir(staging) == [], f"temporary files left after ENOSPC: {os.listdir(staging)}")
        check(snapshot(source, with_mtime=True) == expected, "the source changed")
        print(f"ENOSPC stops cleanly with {len(partial)}/{len(expected)} files imported: "
              f"{err.strip().splitlines()[-1][:160]}")

        os.unlink(filler)  # space freed
        r = run_import(args.agent, source, target, "--json")
        check(r.returncode == 0, f"resume after freeing space failed ({r.returncode}): {r.stderr.decode(errors='replace')}")
        totals = json.loads(r.stdout)["totals"]
        check(totals["files_skipped"] == len(partial), f"resume did not skip the {len(partial)} imported files: {totals}")
        check(snapshot(target, with_mtime=True) == expected, "after the resume the target differs from the source")
        check(snapshot(source, with_mtime=True) == expected, "the source changed")
        print(f"resumed ({totals['files_skipped']} skipped, {totals['files_copied']} copied), target equals source")

        move_after_enospc(args.agent, work, mountpoint, source, expected)
        print("PASS")
        return 0
    except AssertionError as failure:
        print(f"FAIL: {failure}", file=sys.stderr)
        return 1
    finally:
        subprocess.run(["umount", mountpoint], capture_output=True)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
