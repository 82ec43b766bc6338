#!/usr/bin/env python3
"""`tfwsl-agent provision --check` as root never writes through the state folder's links.

The check takes the state folder's lock like a real run (only a check of another root writes
nothing), so root opens `<state>/lock`. Before linux/provision/state_folder, a link planted there
(pointing at a root-only file) had that file truncated and overwritten with the agent's PID (seen on
the old binary: a 0600 file holding "precious" ended up holding "14451"). Now:
  - a planted `lock` link: exit 2, the message names the link, the victim keeps its bytes;
  - a `--state-dir` that is itself a link, or lies in a folder others may write (0777, no sticky
    bit), or belongs to another user: exit 2 naming the component, nothing created in it;
  - a private folder: the check runs (any exit but the refusal) and the lock is a regular file.
Exit 0 / 1 / 77 (not root: the agent would not be root either).
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile

failures = []


def check(ok, what, detail=""):
    print(("ok: " if ok else "FAILED: ") + what)
    if not ok:
        failures.append(what)
        if detail:
            print("    " + str(detail).replace("\n", "\n    "))


def run(agent, state):
    p = subprocess.run([agent, "provision", "--check", "--state-dir", state, "--user", "root", "--platform", "native"],
                       capture_output=True, text=True, timeout=120)
    return p.returncode, p.stdout + p.stderr


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--agent", required=True)
    args = ap.parse_args()
    if os.geteuid() != 0:
        print("skipped: needs root (the state folder's rules are root's)")
        return 77
    top = tempfile.mkdtemp(prefix="tfwsl-state-")
    os.chmod(top, 0o755)
    try:
        victim = os.path.join(top, "victim")
        with open(victim, "w") as f:
            f.write("precious")
        os.chmod(victim, 0o600)

        state = os.path.join(top, "planted")
        os.makedirs(state)
        os.symlink(victim, os.path.join(state, "lock"))
        code, out = run(args.agent, state)
        check(code == 2 and "lock: it is a symbolic link" in out, "a planted lock link is refused by name", out)
        check(open(victim).read() == "precious", "... and the file it points at keeps its bytes")

        real = os.path.join(top, "real")
        os.makedirs(real)
        os.symlink(real, os.path.join(top, "linked"))
        code, out = run(args.agent, os.path.join(top, "linked"))
        check(code == 2 and "linked is a symbolic link" in out, "a state folder that is a link is refused", out)
        check(os.listdir(real) == ["logs"] or os.listdir(real) == [], "... and no lock, journal or log is written through it",
              os.listdir(real))

        shared = os.path.join(top, "shared")
        os.makedirs(shared)
        os.chmod(shared, 0o777)
        code, out = run(args.agent, os.path.join(shared, "state"))
        check(code == 2 and "shared can be written by others (mode 777)" in out, "a folder others may write is refused", out)
        check(not os.path.exists(os.path.join(shared, "state", "lock")), "... before the lock is opened")

        nobody = os.path.join(top, "nobody")
        os.makedirs(nobody)
        os.chown(nobody, 65534, 65534)
        code, out = run(args.agent, nobody)
        check(code == 2 and "is owned by uid 65534" in out, "a folder another user owns is refused", out)

        good = os.path.join(top, "good")
        code, out = run(args.agent, good)
        check(code != 2 or "not safe" not in out, "a private folder is used", out)
        lock = os.path.join(good, "lock")
        check(os.path.isfile(lock) and not os.path.islink(lock), "... and its lock is a regular file")
    finally:
        shutil.rmtree(top, ignore_errors=True)
    print(f"{len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
