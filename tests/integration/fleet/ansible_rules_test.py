#!/usr/bin/env python3
"""The Ansible recipe (docs/fleet/ansible) as the engine treats it, without a tfwsl build:

1. ansible-lint (Debian's 6.13, production profile) finds nothing; ansible.windows is not
   installed here, so its win_command is a mock module (options not validated);
2. windows.yml runs every task as the workstation's user: play-level `become: true`,
   `become_method: runas`, `become_user` a variable, the WinRM caveat cited
   (ansible-collections/ansible.windows#481, microsoft/WSL#8072);
3. every read-only task (changed_when: false) carries `check_mode: false`, in both playbooks;
4. linux.yml run by ansible-playbook against localhost with a stand-in tfwsl (a shell script
   printing tfwsl's JSON shapes): under `--check` the read-only tasks run and the change is
   skipped; and with no tfwsl at all the play stops on "tfwsl is not installed", never on a
   template error from `from_json` over empty output. windows.yml has the same guard tasks.

PowerShell and WinRM are not here: windows.yml is checked by lint and by its structure only.
Skipped (77) when ansible-playbook or ansible-lint is missing.

  ansible_rules_test.py --docs DOCS
"""
import argparse
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

SKIPPED = 77
failures = []

STAND_IN = """#!/bin/sh
# A stand-in tfwsl for ansible_rules_test.py: tfwsl's JSON shapes, nothing else.
case "$*" in
  --version) echo "tfwsl 0.0.0 (stand-in)" ;;
  "dsc test"*) echo '{"_inDesiredState": true}'; echo '[]' ;;
  "doctor --compliance"*) echo '{"tfwsl_version": "0.0.0"}' ;;
  "wslconfig set"*) echo '{"written": true}'; echo "$*" >> "$(dirname "$0")/changed" ;;
  *) echo "stand-in tfwsl: unexpected $*" >&2; exit 3 ;;
esac
"""


def check(condition, what, detail=""):
    print(("ok: " if condition else "FAILED: ") + what + ("" if condition or not detail else f"\n    {str(detail)[-3000:]}"))
    if not condition:
        failures.append(what)


def lint(folder):
    config = tempfile.NamedTemporaryFile("w", suffix=".yml", delete=False)
    config.write("mock_modules:\n  - ansible.windows.win_command\noffline: true\n")
    config.close()
    r = subprocess.run(["ansible-lint", "--nocolor", "-c", config.name, "-p", "windows.yml", "linux.yml"], cwd=folder,
                       capture_output=True, text=True, timeout=600, env=dict(os.environ, LC_ALL="C.UTF-8", NO_COLOR="1"))
    findings = [l for l in (r.stdout + r.stderr).splitlines() if re.match(r"^\S+\.yml:\d+", l)]
    check(r.returncode == 0 and not findings, "ansible-lint: no findings in either playbook", "\n".join(findings) or r.stdout + r.stderr)


def structure(folder, yaml):
    plays = {name: yaml.safe_load((folder / name).read_text(encoding="utf-8")) for name in ("linux.yml", "windows.yml")}
    windows = plays["windows.yml"][0]
    check(windows.get("become") is True and windows.get("become_method") == "runas" and "{{" in str(windows.get("become_user")),
          "windows.yml: every task as the workstation's user (become, runas, become_user a variable)", windows)
    text = (folder / "windows.yml").read_text(encoding="utf-8")
    check("ansible.windows#481" in text and "microsoft/WSL#8072" in text, "windows.yml: the WinRM/wsl.exe caveat cited")
    for name, play in plays.items():
        for task in play[0]["tasks"]:
            if task.get("changed_when") is False and "ansible.builtin.fail" not in task:
                check(task.get("check_mode") is False, f"{name}: read-only task '{task['name']}' runs under --check (check_mode: false)")
        names = [t["name"] for t in play[0]["tasks"]]
        guard = next((t for t in play[0]["tasks"] if "ansible.builtin.fail" in t), {})
        check(names[:2] == ["Find tfwsl", "Stop where tfwsl is not installed"] and "tfwsl is not installed" in str(guard),
              f"{name}: tfwsl is looked for, and its absence said, before any task reads its JSON", names)


def playbook_run(playbook, tfwsl, work, extra=()):
    env = dict(os.environ, LC_ALL="C.UTF-8", LANG="C.UTF-8", ANSIBLE_LOCAL_TEMP=str(work / "tmp"),
               ANSIBLE_REMOTE_TEMP=str(work / "tmp"), ANSIBLE_NOCOLOR="1", ANSIBLE_RETRY_FILES_ENABLED="0")
    argv = ["ansible-playbook", "-i", "localhost,", "-c", "local", str(playbook), "-e", f"tfwsl={tfwsl}",
            "-e", f"wslconfig_file={work / '.wslconfig'}", *extra]
    r = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=600)
    m = re.search(r"^localhost\s*:\s*(.*)$", r.stdout, re.M)
    return r, (dict(re.findall(r"(\w+)=(\d+)", m.group(1))) if m else {})


def linux_runs(folder):
    work = pathlib.Path(tempfile.mkdtemp(prefix="tfwsl-ansible-rules-"))
    try:
        stand_in = work / "tfwsl"
        stand_in.write_text(STAND_IN)
        stand_in.chmod(0o755)
        r, counts = playbook_run(folder / "linux.yml", stand_in, work, ["--check"])
        check(r.returncode == 0 and counts.get("ok") == "3" and counts.get("skipped") == "2" and not (work / "changed").exists(),
              "linux.yml --check: finds tfwsl, asks the DSC resource, collects the facts (ok=3); skips the change and the guard",
              r.stdout + r.stderr)
        r, counts = playbook_run(folder / "linux.yml", work / "no-such-tfwsl", work)
        output = r.stdout + r.stderr
        check(r.returncode != 0 and "tfwsl is not installed" in output and "from_json" not in output
              and "Expecting value" not in output, "linux.yml without tfwsl: stops on 'tfwsl is not installed', no template error",
              output)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--docs", required=True)
    args = ap.parse_args()
    missing = [tool for tool in ("ansible-playbook", "ansible-lint") if not shutil.which(tool)]
    if missing:
        print(f"skipped: {', '.join(missing)} missing (Debian: apt-get install ansible-core ansible-lint)")
        return SKIPPED
    import yaml
    folder = pathlib.Path(args.docs) / "fleet" / "ansible"
    lint(folder)
    structure(folder, yaml)
    linux_runs(folder)
    for f in failures:
        print("FAILED:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
