#!/usr/bin/env python3
"""docs/cli.md against the real --help of every command of both executables.

For each command (found by walking the "Subcommands:" of each --help), docs/cli.md must have a
"### `PROGRAM COMMAND`" section whose option bullets ("- `--json`: ...", "- `-v`, `--verbose`: ...")
name exactly the options that command's --help lists (-h/--help aside), and no section may name a
command that does not exist. Also: every --help ends with examples.
"""
import argparse
import re
import subprocess
import sys


def help_text(argv):
    p = subprocess.run(argv + ["--help"], capture_output=True, text=True, timeout=60)
    if p.returncode != 0:
        sys.exit(f"{' '.join(argv)} --help exited {p.returncode}: {p.stderr}")
    return p.stdout


def section(text, title):
    """The lines of a CLI11 help section ("Options:", "Subcommands:") up to the next blank line."""
    lines = text.splitlines()
    if title not in lines:
        return []
    out = []
    for line in lines[lines.index(title) + 1:]:
        if not line.strip():
            break
        out.append(line)
    return out


def help_options(text):
    names = set()
    for line in section(text, "Options:"):
        if re.match(r"^  -", line):
            names.update(n for n in line.split()[0].split(",") if n.startswith("-"))
    return names - {"-h", "--help"}


def help_subcommands(text):
    # A command's line starts at column 2; a description wrapped to the next line starts further in.
    return [line.split()[0] for line in section(text, "Subcommands:") if re.match(r"^  \S", line)]


def walk(program, path):
    """(command words, help text) for the program and every command below it."""
    text = help_text([program] + path)
    yield path, text
    for sub in help_subcommands(text):
        yield from walk(program, path + [sub])


def doc_sections(markdown):
    sections, current = {}, None
    for line in markdown.splitlines():
        heading = re.match(r"^### `([^`]+)`\s*$", line)
        if heading:
            current = heading.group(1)
            sections[current] = set()
        elif line.startswith("## ") or line.startswith("# "):
            current = None
        elif current is not None and line.startswith("- `-"):
            label = line.split(":", 1)[0]
            for quoted in re.findall(r"`([^`]+)`", label):
                if quoted.startswith("-"):
                    sections[current].add(quoted.split()[0])
    return sections


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tfwsl", required=True)
    ap.add_argument("--agent", required=True)
    ap.add_argument("--doc", required=True)
    a = ap.parse_args()
    with open(a.doc, encoding="utf-8") as f:
        documented = doc_sections(f.read())

    problems, seen = [], set()
    for program, name in ((a.tfwsl, "tfwsl"), (a.agent, "tfwsl-agent")):
        for path, text in walk(program, []):
            command = " ".join([name] + path)
            seen.add(command)
            if "\nExamples:\n  " not in text:
                problems.append(f"{command} --help has no examples")
            if command not in documented:
                problems.append(f"docs/cli.md has no section ### `{command}`")
                continue
            real, doc = help_options(text), documented[command]
            for option in sorted(real - doc):
                problems.append(f"{command}: {option} is in --help but not in docs/cli.md")
            for option in sorted(doc - real):
                problems.append(f"{command}: docs/cli.md lists {option}, which --help does not have")
            print(f"checked {command}: {len(real)} options")
    for command in sorted(set(documented) - seen):
        problems.append(f"docs/cli.md documents `{command}`, which is no command")
    for p in problems:
        print("FAILED:", p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
