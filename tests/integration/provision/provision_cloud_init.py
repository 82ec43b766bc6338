#!/usr/bin/env python3
"""`tfwsl provision --profile P --cloud-init --user U` against cloud-init's own schema checker
(Debian's cloud-init, `cloud-init schema --config-file`), for every built-in profile: "#cloud-config"
first, valid user data; the checker is shown to refuse a broken copy; without --user, or with a
name useradd refuses, it fails naming --user NAME and prints nothing. integration.provision.chroot
runs the generated steps in a Debian root.

  provision_cloud_init.py --tfwsl TFWSL --profiles DIR
Exit 0: passed; 1: a failure (printed); 77: skipped (cloud-init is not installed: scripts/install-deps.sh).
"""
import argparse
import glob
import os
import shutil
import subprocess
import sys
import tempfile

failures = []


def check(condition, what, detail=""):
    print(("ok: " if condition else "FAILED: ") + what + ("" if condition or not detail else f"\n    {detail}"))
    if not condition:
        failures.append(what)


def schema_check(text, folder, name):
    path = os.path.join(folder, name)
    with open(path, "w") as f:
        f.write(text)
    return subprocess.run(["cloud-init", "schema", "--config-file", path], capture_output=True, text=True)


def user_data(tfwsl, *args):
    return subprocess.run([tfwsl, "provision", *args], capture_output=True, text=True, stdin=subprocess.DEVNULL,
                          env=dict(os.environ, NO_COLOR="1"))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tfwsl", required=True)
    ap.add_argument("--profiles", required=True)
    args = ap.parse_args()
    if not shutil.which("cloud-init"):
        print("skipped: cloud-init is not installed (scripts/install-deps.sh installs it)")
        return 77
    profiles = sorted(os.path.basename(p)[:-5] for p in glob.glob(os.path.join(args.profiles, "tf-*.yaml")))
    with tempfile.TemporaryDirectory(prefix="tfwsl-cloud-init-") as folder:
        for profile in profiles:
            p = user_data(args.tfwsl, "--profile", profile, "--cloud-init", "--user", "ada")
            check(p.returncode == 0 and p.stdout.startswith("#cloud-config\n"),
                  f"{profile}: --cloud-init prints user data", f"exit {p.returncode}: {p.stderr[-800:]}")
            s = schema_check(p.stdout, folder, f"{profile}.user-data")
            check(s.returncode == 0, f"{profile}: cloud-init schema accepts it", (s.stdout + s.stderr)[-1500:])
        good = user_data(args.tfwsl, "--profile", profiles[0], "--cloud-init", "--user", "ada").stdout
        broken = good.replace("runcmd:", "runcmd: 5\nnot_runcmd:", 1)
        s = schema_check(broken, folder, "broken.user-data")
        check(s.returncode != 0 and "runcmd" in s.stdout + s.stderr, "cloud-init schema refuses a broken copy (the check can fail)",
              (s.stdout + s.stderr)[-800:])
    for user_args in ([], ["--user", "Ada Lovelace"]):
        p = user_data(args.tfwsl, "--profile", profiles[0], "--cloud-init", *user_args)
        check(p.returncode != 0 and "pass --user NAME" in p.stderr and p.stdout == "",
              f"--cloud-init {' '.join(user_args) or 'without --user'}: fails naming --user NAME, prints nothing",
              f"exit {p.returncode}: {p.stderr[-500:]}")
    p = user_data(args.tfwsl, "--profile", profiles[0], "--cloud-init", "--user", "ada", "--dry-run")
    check(p.returncode != 0 and p.stdout == "", "--cloud-init with --dry-run is refused", p.stderr[-300:])
    if failures:
        print(f"{len(failures)} failure(s)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
