#!/usr/bin/env python3
"""Bad input, each with a clear error or a reported per-file problem, never a crash or a lost file:
missing source, target inside source, source equal to target, unreadable files, names with
newlines, backslashes or non-UTF-8 bytes, 255-byte names, symlink loops, a FIFO, a damaged
manifest, a second import into a busy target, and --move keeping a file it could not read.

  bad_input.py --agent build/linux/tfwsl-agent
"""

import argparse
import fcntl
import json
import os
import shutil
import subprocess
import sys
import tempfile

from dataset_test_support import check, import_command, run_import, snapshot

NOBODY = 65534


def expect_refusal(result, *needles, code=2):
    err = result.stderr.decode(errors="replace")
    check(result.returncode == code, f"expected exit {code}, got {result.returncode}: {err}")
    for needle in needles:
        check(needle in err, f"message lacks {needle!r}: {err}")
    check("internal" not in err.lower(), f"looks like a crash: {err}")
    return err


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--agent", required=True)
    args = parser.parse_args()
    agent = args.agent
    work = tempfile.mkdtemp(prefix="tfwsl-badinput-", dir=os.environ.get("TMPDIR", "/tmp"))
    try:
        src = os.path.join(work, "src")
        os.makedirs(os.path.join(src, "inner"))
        with open(os.path.join(src, "inner", "keep.txt"), "wb") as f:
            f.write(b"keep me")
        before = snapshot(src)

        expect_refusal(run_import(agent, os.path.join(work, "missing"), os.path.join(work, "t1")), "missing", "source")
        check(not os.path.exists(os.path.join(work, "t1")), "a target was created for a missing source")
        print("ok: missing source")

        expect_refusal(run_import(agent, src, os.path.join(src, "inner", "t")), "inside")
        check(not os.path.exists(os.path.join(src, "inner", "t")), "target inside source was created")
        link_to_src = os.path.join(work, "src-link")
        os.symlink(src, link_to_src)
        expect_refusal(run_import(agent, link_to_src, os.path.join(src, "t2"), "--move"), "inside")
        print("ok: target inside source (also through a symlink, with --move)")

        expect_refusal(run_import(agent, src, src), "same folder")
        expect_refusal(run_import(agent, src, link_to_src, "--move"), "same folder")
        check(snapshot(src) == before, "a refused import touched the source")
        print("ok: source equal to target")

        not_dir = os.path.join(work, "file.txt")
        open(not_dir, "wb").close()
        expect_refusal(run_import(agent, not_dir, os.path.join(work, "t3")), "not a folder")
        print("ok: source that is a file")

        # Hard names, symlink loops, a FIFO.
        names = os.path.join(work, "names")
        os.makedirs(names)
        hard = [b"new\nline", b"back\\slash", b"bad-\xff\xfe-utf8", b"x" * 255, b"trailing. ", b"CON", b"sp ace",
                b"pct%41", b"colon:star*"]
        deep = os.path.join(os.fsencode(names), b"y" * 255)
        os.makedirs(deep)
        for i, name in enumerate(hard):
            with open(os.path.join(os.fsencode(names), name), "wb") as f:
                f.write(b"content %d " % i + name)
            with open(os.path.join(deep, name), "wb") as f:
                f.write(name)
        os.symlink("loop2", os.path.join(names, "loop1"))
        os.symlink("loop1", os.path.join(names, "loop2"))
        os.symlink("..", os.path.join(names, "up"))
        os.symlink("../../../../../..", os.path.join(names, "far-up"))
        os.mkfifo(os.path.join(names, "a-fifo"))
        names_expected = snapshot(names)
        r = run_import(agent, names, os.path.join(work, "names-out"), "--json")
        check(r.returncode == 1, f"a FIFO should be reported (exit 1), got {r.returncode}: {r.stderr!r}")
        report = json.loads(r.stdout)
        kinds = {p["path"]: p["kind"] for p in report["problems"]}
        check(kinds == {"a-fifo": "unsupported"}, f"unexpected problems: {report['problems']}")
        got = snapshot(os.path.join(work, "names-out"))
        check(got == names_expected, "hard names were not copied byte-exact")
        check(len(report["windows_unfriendly_names"]) >= 6, f"unfriendly names not reported: {report}")
        print(f"ok: {len(names_expected)} hard names and symlink loops copied byte-exact; FIFO reported")

        # Unreadable files: as root, the importer runs as nobody so permissions apply.
        unread = os.path.join(work, "unreadable")
        os.makedirs(os.path.join(unread, "closed"))
        for name, data in [("ok.txt", b"fine"), ("secret.txt", b"no"), ("closed/hidden.txt", b"no")]:
            with open(os.path.join(unread, name), "wb") as f:
                f.write(data)
        os.chmod(os.path.join(unread, "secret.txt"), 0)
        os.chmod(os.path.join(unread, "closed"), 0)
        out = os.path.join(work, "unreadable-out")
        as_user = None
        if os.geteuid() == 0:
            as_user = NOBODY
            os.makedirs(out)
            for path in (work, unread):
                os.chmod(path, 0o755)
            os.chown(out, NOBODY, NOBODY)
            os.chown(unread, NOBODY, NOBODY)
        r = run_import(agent, unread, out, "--json", "--move", as_user=as_user)
        check(r.returncode == 1, f"unreadable files: expected exit 1, got {r.returncode}: {r.stderr!r}")
        problems = {p["path"]: p["kind"] for p in json.loads(r.stdout)["problems"]}
        check(problems.get("secret.txt") == "unreadable" and problems.get("closed") == "unreadable",
              f"unreadable files not reported: {problems}")
        check(os.path.exists(os.path.join(unread, "secret.txt")), "--move lost an unreadable file")
        check(not os.path.exists(os.path.join(unread, "ok.txt")), "--move did not move the readable file")
        with open(os.path.join(out, "ok.txt"), "rb") as f:
            check(f.read() == b"fine", "readable file not imported")
        os.chmod(os.path.join(unread, "closed"), 0o755)
        print("ok: unreadable file and folder reported, kept in the source, the rest moved")

        # A damaged manifest: resume refuses instead of guessing.
        target = os.path.join(work, "t4")
        check(run_import(agent, src, target).returncode == 0, "plain import failed")
        manifest = os.path.join(target, ".tfwsl-import", "manifest")
        with open(manifest, "r+b") as f:
            data = bytearray(f.read())
            data[len(data) // 2 + 40 if len(data) > 100 else -5] ^= 0x01
            f.seek(0)
            f.write(data)
        expect_refusal(run_import(agent, src, target, "--move"), "damaged")
        check(snapshot(src) == before, "a refused resume touched the source")
        print("ok: damaged manifest refused, source untouched")

        # One mutating import per target.
        target = os.path.join(work, "t5")
        os.makedirs(os.path.join(target, ".tfwsl-import"), mode=0o700)
        with open(os.path.join(target, ".tfwsl-import", "lock"), "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            expect_refusal(run_import(agent, src, target), "another import")
        print("ok: a second import into a busy target is refused")

        # A state folder someone else may write (or, as root, someone else owns) is refused by
        # name before anything is written in it: its lock, staging and manifest would be theirs.
        target = os.path.join(work, "t6")
        state = os.path.join(target, ".tfwsl-import")
        os.makedirs(state)
        os.chmod(state, 0o777)
        expect_refusal(run_import(agent, src, target), ".tfwsl-import", "others may write")
        check(os.listdir(state) == [], "a loose state folder was written in")
        if os.geteuid() == 0:
            os.chmod(state, 0o700)
            os.chown(state, NOBODY, NOBODY)
            expect_refusal(run_import(agent, src, target), ".tfwsl-import", "owned by")
            check(os.listdir(state) == [], "a state folder owned by another user was written in")
        print("ok: a state folder others may write or own is refused by name")

        # A FIFO named like the manifest is refused at once instead of blocking the job.
        target = os.path.join(work, "t7")
        os.makedirs(os.path.join(target, ".tfwsl-import"), mode=0o700)
        os.mkfifo(os.path.join(target, ".tfwsl-import", "manifest"))
        try:
            r = subprocess.run(import_command(agent, src, target), capture_output=True, timeout=20)
        except subprocess.TimeoutExpired:
            raise AssertionError("a FIFO named manifest blocked the import")
        expect_refusal(r, "manifest", "not a regular file")
        print("ok: a FIFO named manifest is refused, never waited on")
        print("PASS")
        return 0
    except AssertionError as failure:
        print(f"FAIL: {failure}", file=sys.stderr)
        return 1
    finally:
        for dirpath, dirnames, _ in os.walk(work):
            for d in dirnames:
                try:
                    os.chmod(os.path.join(dirpath, d), 0o755)
                except OSError:
                    pass
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
