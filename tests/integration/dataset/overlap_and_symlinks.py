#!/usr/bin/env python3
"""`tfwsl-agent dataset import` refuses a source and a target that overlap (either inside the other,
the same folder; also through a symlink, a `..`, /proc/self/cwd or, with --bind-mount, a bind mount)
before anything is touched, and never follows a symlink in the target where the import needs a
folder: the files under it are reported (`target-symlink`), nothing is written outside the target.

  overlap_and_symlinks.py --agent build/linux/tfwsl-agent [--bind-mount]
      --bind-mount: only the bind-mount case (needs root and mount; exit 77 = skipped)
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

from dataset_test_support import check, import_command, run_import, snapshot

SKIP = 77


def make_nested_source(root):
    """R/srcD with zz.txt (precious), srcD/zz.txt (5 MiB) and 600 small files: imported into R with
    --move, srcD/zz.txt's copy would land on the precious R/srcD/zz.txt."""
    os.makedirs(os.path.join(root, "srcD", "srcD"))
    with open(os.path.join(root, "srcD", "zz.txt"), "wb") as f:
        f.write(b"ORIGINAL precious\n")
    with open(os.path.join(root, "srcD", "srcD", "zz.txt"), "wb") as f:
        f.write(os.urandom(5 << 20))
    for i in range(600):
        with open(os.path.join(root, "srcD", f"a{i:03d}"), "wb") as f:
            f.write(b"%03d\n" % i)


def full_listing(root):
    """Every path under root, state folder included: a refused import must not even create that."""
    out = set()
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            out.add(os.path.relpath(os.path.join(dirpath, name), root))
    return out


def expect_overlap_refused(result, what):
    err = result.stderr.decode(errors="replace")
    check(result.returncode == 2, f"{what}: expected exit 2, got {result.returncode}: {err}")
    check("inside" in err or "same folder" in err, f"{what}: message does not name the overlap: {err}")
    return err


def overlap_cases(agent, work):
    root = os.path.join(work, "R")
    make_nested_source(root)
    src = os.path.join(root, "srcD")
    before, listing = snapshot(root), full_listing(root)

    # The reproduction, to the letter.
    r = run_import(agent, src, root, "--move", "--jobs", "1", "--json")
    err = expect_overlap_refused(r, "source inside target (--move)")
    check("source" in err and "inside" in err, f"the message should say the source is inside the target: {err}")
    with open(os.path.join(src, "zz.txt"), "rb") as f:
        check(f.read() == b"ORIGINAL precious\n", "the precious file was overwritten")
    print(f"ok: source inside target refused: {err.strip().splitlines()[-1][:160]}")

    os.symlink(root, os.path.join(work, "R-link"))
    os.symlink(src, os.path.join(work, "src-link"))
    cases = [
        ("target inside source", src, os.path.join(src, "srcD", "t"), {}),
        ("same folder", src, src, {}),
        ("same folder via a symlink", os.path.join(work, "src-link"), src, {}),
        ("source inside target via a symlink", os.path.join(work, "R-link", "srcD"), root, {}),
        ("target inside source via a symlink", src, os.path.join(work, "src-link", "srcD"), {}),
        ("target is the source's parent via ..", src, os.path.join(src, "srcD", "..", ".."), {}),
        ("source inside target via /proc/self/cwd", "/proc/self/cwd/srcD", "/proc/self/cwd", {"cwd": root}),
        ("target inside source via /proc/self/cwd", "/proc/self/cwd", "/proc/self/cwd/srcD/t", {"cwd": src}),
    ]
    for what, source, target, kwargs in cases:
        r = subprocess.run(import_command(agent, source, target, "--move"), capture_output=True, **kwargs)
        expect_overlap_refused(r, what)
        print(f"ok: {what} refused")
    check(snapshot(root) == before and full_listing(root) == listing, "a refused import touched the tree")
    print("ok: every refused import left the tree as it was (no state folder either)")


def bind_mount_case(agent, work):
    if os.geteuid() != 0 or shutil.which("unshare") is None:
        print("SKIP: the bind-mount case needs root and unshare(1)")
        return SKIP
    root, bound = os.path.join(work, "R"), os.path.join(work, "B")
    make_nested_source(root)
    os.makedirs(bound)
    before = snapshot(root)
    results = {}
    for what, source, target in [("source inside target", os.path.join(bound, "srcD"), root),
                                 ("target inside source", os.path.join(root, "srcD"), os.path.join(bound, "srcD", "t")),
                                 ("same folder", os.path.join(bound, "srcD"), os.path.join(root, "srcD"))]:
        # A private mount namespace: the bind mount exists only for this one command.
        script = 'mount --bind "$1" "$2" || exit 99; shift 2; exec "$@"'
        cmd = ["unshare", "-m", "--propagation", "private", "sh", "-c", script, "sh", root, bound,
               *import_command(agent, source, target, "--move")]
        r = subprocess.run(cmd, capture_output=True)
        if r.returncode == 99 or (r.returncode != 2 and b"unshare" in r.stderr):
            print(f"SKIP: cannot bind-mount here: {r.stderr.decode(errors='replace').strip()}")
            return SKIP
        results[what] = r
    for what, r in results.items():
        expect_overlap_refused(r, f"{what} through a bind mount")
        print(f"ok: {what} through a bind mount refused")
    check(snapshot(root) == before, "a refused import touched the tree")
    return 0


def symlinked_target_folder(agent, work):
    base = os.path.join(work, "sym")
    src, tgt, outside = (os.path.join(base, n) for n in ("src", "tgt", "outside"))
    for d in (os.path.join(src, "evil", "deeper"), outside, tgt):
        os.makedirs(d)
    for rel, data in [("evil/pwn.txt", b"X\n"), ("evil/deeper/pwn2.txt", b"Y\n"), ("ok.txt", b"fine\n")]:
        with open(os.path.join(src, rel), "wb") as f:
            f.write(data)
    os.symlink(outside, os.path.join(tgt, "evil"))
    r = run_import(agent, src, tgt, "--json")
    err = r.stderr.decode(errors="replace")
    check(r.returncode == 1, f"symlinked target folder: expected exit 1 (per-file problems), got {r.returncode}: {err}")
    check(os.listdir(outside) == [], f"written outside the target: {os.listdir(outside)}")
    check("check the disk" not in err and "cannot create the folder" not in err, f"misleading message: {err}")
    problems = {p["path"]: p for p in json.loads(r.stdout)["problems"]}
    check(set(problems) == {"evil/pwn.txt", "evil/deeper/pwn2.txt"}, f"unexpected problems: {problems}")
    for p in problems.values():
        check(p["kind"] == "target-symlink" and "target path component is a symlink" in p["message"],
              f"problem not reported as a target symlink: {p}")
    check(os.path.islink(os.path.join(tgt, "evil")), "the symlink in the target was replaced")
    with open(os.path.join(tgt, "ok.txt"), "rb") as f:
        check(f.read() == b"fine\n", "the rest was not imported")
    print("ok: a symlinked target folder is reported per file and never followed")

    # Planted by an earlier import (a symlink copied as a symlink, correctly), then written through
    # by a second import into the same target.
    plant, payload, tgt2, outside2 = (os.path.join(base, n) for n in ("plant", "payload", "tgt2", "outside2"))
    os.makedirs(plant)
    os.makedirs(outside2)
    os.makedirs(os.path.join(payload, "evil", "deeper"))
    os.symlink(outside2, os.path.join(plant, "evil"))
    with open(os.path.join(payload, "evil", "deeper", "pwn2.txt"), "wb") as f:
        f.write(b"Y\n")
    check(run_import(agent, plant, tgt2).returncode == 0, "planting import failed")
    r = run_import(agent, payload, tgt2, "--move", "--json")
    check(r.returncode == 1, f"second import: expected exit 1, got {r.returncode}: {r.stderr!r}")
    check(os.listdir(outside2) == [], f"the second import wrote outside the target: {os.listdir(outside2)}")
    check(os.path.exists(os.path.join(payload, "evil", "deeper", "pwn2.txt")), "--move deleted an unimported file")
    print("ok: a symlink planted by a first import is not followed by a second one")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--agent", required=True)
    parser.add_argument("--bind-mount", action="store_true")
    args = parser.parse_args()
    agent = os.path.abspath(args.agent)  # some cases run it from another working directory
    work = os.path.realpath(tempfile.mkdtemp(prefix="tfwsl-overlap-", dir=os.environ.get("TMPDIR", "/tmp")))
    try:
        if args.bind_mount:
            rc = bind_mount_case(agent, work)
        else:
            overlap_cases(agent, work)
            symlinked_target_folder(agent, work)
            rc = 0
        if rc == 0:
            print("PASS")
        return rc
    except AssertionError as failure:
        print(f"FAIL: {failure}", file=sys.stderr)
        return 1
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
