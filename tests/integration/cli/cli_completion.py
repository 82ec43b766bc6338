#!/usr/bin/env python3
"""The completion scripts of the native tfwsl, loaded in real shells (bash, zsh through its
bashcompinit, fish) and asked to complete, as a user's Tab asks: the commands, a subcommand, an
option's closed set of values (`--color`), the shells of `completion`, and the values the program
lists when asked (`completion --list profiles|distros`: the distros come from a wsl.exe stand-in
that answers `-l -v` as wsl.exe does with WSL_UTF8=1). A distro whose name a shell would expand is
never offered, and nothing in it runs.

  cli_completion.py --tfwsl PATH
Exit 0 ok, 1 a failure.
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile

# `wsl.exe -l -v` with WSL_UTF8=1 (UTF-8, CRLF as wsl.exe writes it); the third name is one a
# shell would run if it expanded it.
WSL_LIST = "  NAME            STATE           VERSION\\r\\n* Ubuntu-24.04    Running         2\\r\\n" \
           "  Debian          Stopped         2\\r\\n  x$(touch${IFS}PWNED)    Stopped         2\\r\\n"

CASES = [  # (words typed, the word being completed, what must be offered exactly, or a subset)
    (["tfwsl", "wslconfig"], "s", {"set", "show"}, "exact"),
    (["tfwsl", "--color"], "a", {"always", "auto"}, "exact"),
    (["tfwsl", "doctor", "--color"], "n", {"never"}, "exact"),
    (["tfwsl", "completion"], "", {"bash", "zsh", "fish", "powershell"}, "subset"),
    (["tfwsl", "provision", "--profile"], "tf-2.1", {"tf-2.15-cuda-12.2", "tf-2.16-cuda-12.3", "tf-2.17-cuda-12.3",
                                                      "tf-2.18-cuda-12.5", "tf-2.19-cuda-12.5"}, "exact"),
    (["tfwsl", "doctor", "--distro"], "", {"Ubuntu-24.04", "Debian"}, "exact"),
]

BASH = """source <("$TFWSL_PROGRAM" completion bash) || exit 9
reply() { COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMPREPLY=(); _tfwsl_complete; printf '%s\\n' "${COMPREPLY[*]}"; }
"""
ZSH = """autoload -U +X compinit && compinit -u
source <("$TFWSL_PROGRAM" completion zsh) || exit 9
# zsh's own matcher keeps the candidates that start with the word (bashcompinit's compgen leaves that
# to it), as compadd does with what the function returns.
reply() { COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 )); COMPREPLY=(); _tfwsl_complete; print -r -- "${(M)COMPREPLY[@]:#${(b)@[-1]}*}"; }
"""


def shell_quote(word):
    return "'" + word.replace("'", "'\\''") + "'"


def bash_like(shell, preamble, env):
    script = preamble + "".join("reply " + " ".join(shell_quote(w) for w in words + [cur]) + "\n"
                                for words, cur, _, _ in CASES)
    argv = ["bash", "--norc", "--noprofile", "-c", script] if shell == "bash" else ["zsh", "-f", "-c", script]
    r = subprocess.run(argv, capture_output=True, text=True, timeout=120, env=env)
    return r, [set(line.split()) for line in r.stdout.splitlines()]


def fish(env, script_path):
    lines = []
    for words, cur, _, _ in CASES:
        line = " ".join(words + [cur])
        r = subprocess.run(["fish", "--no-config", "-c", f"source {shell_quote(script_path)}; complete -C {shell_quote(line)}"],
                           capture_output=True, text=True, timeout=60, env=env)
        if r.returncode != 0:
            return r, []
        lines.append({candidate.split("\t")[0] for candidate in r.stdout.splitlines()
                      if candidate and not os.path.exists(candidate.split("\t")[0])})
    return r, lines


def judge(shell, got, failures):
    if len(got) != len(CASES):
        failures.append(f"{shell}: {len(got)} answers for {len(CASES)} cases: {got}")
        return
    for (words, cur, want, how), offered in zip(CASES, got):
        ok = offered == want if how == "exact" else want <= offered
        if not ok:
            failures.append(f"{shell}: {' '.join(words)} {cur!r}<Tab> offered {sorted(offered)}, want {sorted(want)} ({how})")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tfwsl", required=True)
    a = parser.parse_args()
    failures = []
    with tempfile.TemporaryDirectory() as work:
        bin_dir = os.path.join(work, "bin")
        os.mkdir(bin_dir)
        os.symlink(os.path.abspath(a.tfwsl), os.path.join(bin_dir, "tfwsl"))
        wsl = os.path.join(bin_dir, "wsl.exe")
        with open(wsl, "w") as f:
            f.write(f"#!/bin/sh\n[ \"$1 $2\" = \"-l -v\" ] || exit 1\nprintf '{WSL_LIST}'\n")
        os.chmod(wsl, 0o755)
        env = dict(os.environ, PATH=bin_dir + os.pathsep + os.environ["PATH"], TFWSL_WSL_EXE=wsl,
                   TFWSL_PROGRAM=os.path.join(bin_dir, "tfwsl"), HOME=work)
        env.pop("SystemRoot", None)
        for shell, preamble in (("bash", BASH), ("zsh", ZSH)):
            if not shutil.which(shell):
                failures.append(f"{shell} is not installed (scripts/install-deps.sh installs it)")
                continue
            r, got = bash_like(shell, preamble, env)
            if r.returncode != 0:
                failures.append(f"{shell}: exit {r.returncode}, err {r.stderr[-400:]!r}")
            judge(shell, got, failures)
        if shutil.which("fish"):
            script = os.path.join(work, "tfwsl.fish")
            with open(script, "w") as f:
                f.write(subprocess.run([a.tfwsl, "completion", "fish"], capture_output=True, text=True, check=True).stdout)
            r, got = fish(env, script)
            if r.returncode != 0:
                failures.append(f"fish: exit {r.returncode}, err {r.stderr[-400:]!r}")
            judge("fish", got, failures)
        else:
            failures.append("fish is not installed (scripts/install-deps.sh installs it)")
        for root, _, files in os.walk(work):
            if "PWNED" in files:
                failures.append(f"a distro's name was run by a shell: {root}/PWNED exists")
    for f in failures:
        print("FAILED:", f)
    print("ok" if not failures else f"{len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
