#!/usr/bin/env python3
"""Builds tests/corpus/migrate-real/*.txt from local snapshots of public repositories.

Each case names a repository, the dependency files taken byte-exact from its snapshot (git show
COMMIT:PATH) and, where the decision needs them, a few import lines of one real source file (only
the lines that import tensorflow/keras, never code to build). The expectation (`migrate:`) was
written by hand from reading the files, before running tfwsl on them (README.md).

Usage: build_migrate_real.py MIRROR_ROOT CASES_JSON OUT_FOLDER
MIRROR_ROOT holds OWNER+NAME/repo git directories (the `fetch` tool's snapshots).
"""
import json
import os
import re
import subprocess
import sys


def git(mirror, owner_repo, *args):
    folder = os.path.join(mirror, owner_repo.replace("/", "+"), "repo")
    if os.path.isdir(os.path.join(folder, ".git")):
        folder = os.path.join(folder, ".git")
    return subprocess.run(["git", "--git-dir", folder, *args], check=True, capture_output=True).stdout


def build(mirror, case):
    repo = case["repo"]
    commit = git(mirror, repo, "rev-parse", case.get("commit", "HEAD")).decode().strip()
    sources = []
    chunks = []
    for path in case["files"]:
        data = git(mirror, repo, "show", f"{commit}:{path}")
        marker = b""
        if not data.endswith(b"\n"):
            marker, data = b" --no-final-newline", data + b"\n"  # the scorer takes the newline off again
        if re.search(rb"^=== ", data, re.M):
            raise SystemExit(f"{repo}:{path} has a line starting '=== '")
        sources.append(f"{repo}@{commit}:{path}")
        chunks.append(b"=== " + path.encode() + marker + b"\n" + data)
    for path in case.get("imports", []):
        data = git(mirror, repo, "show", f"{commit}:{path}")
        lines = [l for l in data.splitlines(keepends=True)
                 if re.match(rb"\s*(import|from)\s+(tensorflow|keras|tf_keras)\b", l)][:6]
        if not lines:
            raise SystemExit(f"{repo}:{path} imports neither tensorflow nor keras")
        sources.append(f"{repo}@{commit}:{path} (its import lines only)")
        chunks.append(b"=== " + path.encode() + b"\n" + b"".join(l.lstrip() for l in lines))
    header = [
        f"source: {'; '.join(sources)}",
        f"what: {case['what']}",
        f"class: {case['class']}",
        'expect: {"kind": "project"}',
        f"migrate: {json.dumps(case['migrate'])}",
        "layout: files",
        "---",
    ]
    return ("\n".join(header) + "\n").encode() + b"".join(chunks)


def main(argv):
    mirror, cases_path, out = argv
    with open(cases_path, encoding="utf-8") as f:
        cases = json.load(f)
    for case in cases:
        with open(os.path.join(out, case["name"] + ".txt"), "wb") as f:
            f.write(build(mirror, case))
    print(f"{len(cases)} cases written to {out}")


if __name__ == "__main__":
    main(sys.argv[1:])
