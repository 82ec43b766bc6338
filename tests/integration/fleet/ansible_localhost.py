#!/usr/bin/env python3
"""docs/fleet/ansible/linux.yml run by ansible-playbook (ansible-core, Debian) against localhost
with the Linux build of tfwsl: the first run changes the .wslconfig (changed=1), the second
reports ok with nothing changed (changed=0) and leaves the file's bytes and mtime as they were.
Skipped (77) when ansible-playbook is missing."""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

SKIPPED = 77
failures = []


def check(condition, what, detail=""):
    print(("ok: " if condition else "FAILED: ") + what + ("" if condition or not detail else f"\n    {str(detail)[-3000:]}"))
    if not condition:
        failures.append(what)


def recap(output):
    """ansible-playbook's PLAY RECAP counts for localhost."""
    m = re.search(r"^localhost\s*:\s*(.*)$", output, re.M)
    return dict(re.findall(r"(\w+)=(\d+)", m.group(1))) if m else {}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tfwsl", required=True)
    parser.add_argument("--playbook", required=True)
    args = parser.parse_args()
    playbook = shutil.which("ansible-playbook")
    if not playbook:
        print("skipped: ansible-playbook is missing (Debian: apt-get install ansible-core)")
        return SKIPPED
    work = tempfile.mkdtemp(prefix="tfwsl-ansible-")
    wslconfig = os.path.join(work, ".wslconfig")
    with open(wslconfig, "w", newline="") as f:
        f.write("[wsl2]\r\nmemory=4GB\r\n")
    # Ansible wants a UTF-8 locale and a home for its temporary files; nothing else of the machine's.
    env = dict(os.environ, LC_ALL="C.UTF-8", LANG="C.UTF-8", ANSIBLE_LOCAL_TEMP=os.path.join(work, "tmp"),
               ANSIBLE_REMOTE_TEMP=os.path.join(work, "tmp"), ANSIBLE_NOCOLOR="1", ANSIBLE_RETRY_FILES_ENABLED="0")
    argv = [playbook, "-i", "localhost,", "-c", "local", args.playbook,
            "-e", f"tfwsl={args.tfwsl}", "-e", f"wslconfig_file={wslconfig}"]
    first = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=600)
    counts = recap(first.stdout)
    check(first.returncode == 0 and counts.get("changed") == "1" and counts.get("failed") == "0",
          "the first run changes the .wslconfig (changed=1, failed=0)", first.stdout + first.stderr)
    data = open(wslconfig, "rb").read()
    check(b"memory=16GB\r\n" in data and b"processors=8\r\n" in data, "... which now holds the team's values", repr(data))
    st = os.stat(wslconfig)
    second = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=600)
    counts = recap(second.stdout)
    check(second.returncode == 0 and counts.get("changed") == "0" and counts.get("ok") == "4",
          "the second run: ok with nothing changed (changed=0)", second.stdout + second.stderr)
    check(os.stat(wslconfig).st_mtime_ns == st.st_mtime_ns and open(wslconfig, "rb").read() == data,
          "... and the file's bytes and mtime are as the first run left them")
    for f in failures:
        print("FAILED:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
