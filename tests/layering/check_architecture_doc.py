#!/usr/bin/env python3
"""docs/architecture.md's "## Folders" against the tree (CTest layering.architecture-doc).

    check_architecture_doc.py REPO_ROOT [--doc FILE]

The convention: a folder is described when the "## Folders" section of docs/architecture.md (up to
the next "## " heading) names its path from the repository root in backticks, with or without the
trailing slash: `common/units/` or `common/units`. A bare name (`units/`) or a path outside
backticks does not count.

1. Every folder one or two levels under common/, linux/, win/, tests/, scripts/, profiles/, docs/,
   cmake/ and packaging/ (the root folder itself too) that holds a tracked file, directly or
   further down, must be described. Tracked files are what `git ls-files` lists in REPO_ROOT;
   where that fails (no git, not a checkout), the tree is walked instead, skipping build/,
   __pycache__/ and hidden folders.
2. No stale path: every backticked path anywhere in the doc that starts with one of those roots
   and holds no placeholder (<area>, *, {a,b}, $VAR) and no space must exist, as a tracked file or
   a folder holding one; one that ends in '/' must be a folder.

The check is also run on two doctored copies of the doc (one folder's mentions removed, one path
that does not exist added) and must fail on each, so a check that can no longer fail is caught.
Exit 0 when the doc and the tree agree; 1 otherwise, naming each folder and each stale path.
"""
import argparse
import os
import re
import subprocess
import sys

ROOTS = ("common", "linux", "win", "tests", "scripts", "profiles", "docs", "cmake", "packaging")
MAX_DEPTH = 2
PLACEHOLDER = re.compile(r"[<>*{}$\s]")


def tracked_files(root):
    """Paths relative to root, '/'-separated: git's tracked files, else a walk of the tree."""
    try:
        out = subprocess.run(["git", "-C", root, "ls-files", "-z"], capture_output=True, timeout=60)
        if out.returncode == 0 and out.stdout:
            return [p for p in out.stdout.decode("utf-8", "surrogateescape").split("\0") if p]
    except (OSError, subprocess.SubprocessError):
        pass
    files = []
    for top in ROOTS:
        for here, dirs, names in os.walk(os.path.join(root, top)):
            dirs[:] = [d for d in dirs if not d.startswith(".") and d not in ("build", "__pycache__")]
            rel = os.path.relpath(here, root).replace(os.sep, "/")
            files.extend(f"{rel}/{n}" for n in names if not n.startswith("."))
    return files


def all_folders(files):
    """Every folder that holds one of files, at any depth."""
    folders = set()
    for f in files:
        parts = f.split("/")[:-1]
        for i in range(1, len(parts) + 1):
            folders.add("/".join(parts[:i]))
    return folders


def checked_folders(folders):
    return sorted(f for f in folders if f.split("/")[0] in ROOTS and len(f.split("/")) <= MAX_DEPTH)


def backticked(text):
    return re.findall(r"`([^`\n]+)`", text)


def folders_section(doc):
    match = re.search(r"^## Folders[ \t]*\n(.*?)(?=^## |\Z)", doc, re.S | re.M)
    return match.group(1) if match else ""


def problems(doc, files):
    folders = all_folders(files)
    file_set = set(files)
    found = []
    named = {span.rstrip("/") for span in backticked(folders_section(doc))}
    if not folders_section(doc):
        found.append('docs/architecture.md has no "## Folders" section')
    for folder in checked_folders(folders):
        if folder not in named:
            found.append(f"folder {folder}/ is not described in \"## Folders\" (as `{folder}/`)")
    for span in sorted(set(backticked(doc))):
        if PLACEHOLDER.search(span) or span.split("/")[0] not in ROOTS or "/" not in span:
            continue
        path = span.rstrip("/")
        if span.endswith("/") and path not in folders:
            found.append(f"`{span}` is named in the doc but no such folder holds a tracked file (stale?)")
        elif not span.endswith("/") and path not in folders and path not in file_set:
            found.append(f"`{span}` is named in the doc but is neither a tracked file nor a folder (stale?)")
    return found


def self_check(doc, files):
    """The check must fail on a doc with one folder's mentions removed and on one with a stale path."""
    failures = []
    folder = checked_folders(all_folders(files))[-1]
    without = re.sub(r"`" + re.escape(folder) + r"/?`", "", doc)
    if not any(f"folder {folder}/ " in p for p in problems(without, files)):
        failures.append(f"self-check: removing `{folder}/` from the doc went unnoticed")
    stale = doc + "\n`common/no_such_folder/`\n"
    if not any("common/no_such_folder/" in p for p in problems(stale, files)):
        failures.append("self-check: a stale `common/no_such_folder/` went unnoticed")
    return failures


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root", help="the repository root")
    parser.add_argument("--doc", help="the doc to check (default: ROOT/docs/architecture.md)")
    args = parser.parse_args()
    doc_path = args.doc or os.path.join(args.root, "docs", "architecture.md")
    with open(doc_path, encoding="utf-8") as f:
        doc = f.read()
    files = tracked_files(args.root)
    if not files:
        print(f"check_architecture_doc: no files found under {args.root}", file=sys.stderr)
        return 1
    found = problems(doc, files) + self_check(doc, files)
    for p in found:
        print(f"{doc_path}: {p}")
    count = len(checked_folders(all_folders(files)))
    if found:
        print(f"check_architecture_doc: {len(found)} problem(s); {count} folders checked")
        return 1
    print(f"check_architecture_doc: all {count} folders described, no stale paths")
    return 0


if __name__ == "__main__":
    sys.exit(main())
