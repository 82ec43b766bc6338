#!/usr/bin/env python3
"""--help of every tfwsl command at 80 columns (not a terminal: tfwsl wraps to 80) against golden
files in tests/golden/help/ (tfwsl.txt, tfwsl_doctor.txt, tfwsl_wslconfig_set.txt, ...).

Each help must match its golden file, and every line must fit in 80 columns; no line may end in
the middle of a command (a program name, or an option, left at a line's end with its arguments on
the next line). A command without a golden file, or a golden file without a command, fails too.
With --update the golden files are written from the real output (review them with git diff).
"""
import argparse
import os
import re
import subprocess
import sys

PROGRAMS = {"tfwsl", "tfwsl.exe", "tfwsl-agent", "wsl", "wsl.exe"}


def help_text(argv):
    p = subprocess.run(argv + ["--help"], capture_output=True, text=True, timeout=60, env=dict(os.environ, COLUMNS="200"))
    if p.returncode != 0:
        sys.exit(f"{' '.join(argv)} --help exited {p.returncode}: {p.stderr}")
    return p.stdout


def subcommands(text):
    lines = text.splitlines()
    if "Subcommands:" not in lines:
        return []
    out = []
    for line in lines[lines.index("Subcommands:") + 1:]:
        if not line.strip():
            break
        if re.match(r"^  \S", line):
            out.append(line.split()[0])
    return out


def walk(program, path):
    text = help_text([program] + path)
    yield path, text
    for sub in subcommands(text):
        yield from walk(program, path + [sub])


def layout_problems(command, text):
    problems = []
    for n, line in enumerate(text.splitlines(), 1):
        if len(line) > 80:
            problems.append(f"{command} --help line {n} has {len(line)} columns: {line}")
        words = line.split()
        if words and words[-1] in PROGRAMS and len(words) > 1:
            problems.append(f"{command} --help line {n} ends with the program of a command split in two: {line}")
    return problems


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tfwsl", required=True)
    ap.add_argument("--golden", required=True)
    ap.add_argument("--update", action="store_true")
    a = ap.parse_args()
    if a.update:
        os.makedirs(a.golden, exist_ok=True)
    elif not os.path.isdir(a.golden) or not any(n.endswith(".txt") for n in os.listdir(a.golden)):
        # Not a pass: the goldens have not been written yet (cli_golden.py ... --update, then review).
        print(f"SKIPPED: no golden files in {a.golden}; write them with --update and review them")
        return 77
    problems, seen = [], set()
    for path, text in walk(a.tfwsl, []):
        command = " ".join(["tfwsl"] + path)
        name = "_".join(["tfwsl"] + path) + ".txt"
        seen.add(name)
        golden = os.path.join(a.golden, name)
        problems += layout_problems(command, text)
        if a.update:
            with open(golden, "w", encoding="utf-8", newline="\n") as f:
                f.write(text)
            continue
        if not os.path.exists(golden):
            problems.append(f"{command}: no golden file {golden} (run with --update)")
            continue
        with open(golden, encoding="utf-8") as f:
            if f.read() != text:
                problems.append(f"{command} --help differs from {golden}:\n{text}")
        print(f"ok: {command} --help matches {name}")
    for name in sorted(set(os.listdir(a.golden)) - seen):
        problems.append(f"{name} is the golden file of no command")
    for p in problems:
        print("FAILED:", p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
