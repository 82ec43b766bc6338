#!/usr/bin/env python3
"""`tfwsl.exe completion bash`, as Git Bash or WSL's bash loads it: `source <(tfwsl.exe completion
bash)`. The script must have no CR (bash reads `{\\r` as a syntax error) and must complete in a real
bash: the commands after `tfwsl `, a subcommand after `tfwsl wslconfig `, an option's closed set
(`--color`), and the profile names the script asks `tfwsl.exe completion --list profiles` for
(through a `tfwsl` on PATH that runs tfwsl.exe under Wine): names without a CR.

  completion_bash.py --wine WINE64 --tfwsl TFWSL.EXE
Exit 0 ok, 1 a failure.
"""
import argparse
import os
import subprocess
import sys
import tempfile

COMPLETE = """source "$1" || exit 9
reply() { COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMPREPLY=(); _tfwsl_complete; echo "${COMPREPLY[*]}"; }
reply tfwsl do
reply tfwsl wslconfig s
reply tfwsl --color a
reply tfwsl provision --profile tf-2.1
"""
PROFILES = ["tf-2.15-cuda-12.2", "tf-2.16-cuda-12.3", "tf-2.17-cuda-12.3", "tf-2.18-cuda-12.5", "tf-2.19-cuda-12.5"]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--wine", required=True)
    parser.add_argument("--tfwsl", required=True)
    a = parser.parse_args()
    failures = []
    r = subprocess.run([a.wine, a.tfwsl, "completion", "bash"], capture_output=True, stdin=subprocess.DEVNULL, timeout=120)
    script = r.stdout
    if r.returncode != 0 or b"_tfwsl_complete" not in script:
        failures.append(f"completion bash: exit {r.returncode}, stderr {r.stderr[-300:]!r}")
    carriage_returns = script.count(b"\r")
    if carriage_returns:
        failures.append(f"the script has {carriage_returns} CR bytes (bash: syntax error near $'{{\\r')")
    with tempfile.TemporaryDirectory() as work:
        path = os.path.join(work, "tfwsl.bash")
        with open(path, "wb") as f:
            f.write(script)
        program = os.path.join(work, "tfwsl")
        with open(program, "w") as f:
            f.write(f"#!/bin/sh\nexec '{a.wine}' '{a.tfwsl}' \"$@\"\n")
        os.chmod(program, 0o755)
        env = dict(os.environ, PATH=work + os.pathsep + os.environ["PATH"])
        b = subprocess.run(["bash", "--norc", "--noprofile", "-c", COMPLETE, "bash", path], capture_output=True,
                           text=True, timeout=180, env=env)
    lines = b.stdout.splitlines()
    want = [["doctor"], ["set", "show"], ["always", "auto"], PROFILES]
    if b.returncode != 0 or [sorted(line.split(" ")) for line in lines] != want:
        failures.append(f"bash sourcing it and completing: exit {b.returncode}, out {b.stdout!r}, err {b.stderr[-300:]!r}")
    for f in failures:
        print("FAILED:", f)
    print("ok" if not failures else f"{len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
