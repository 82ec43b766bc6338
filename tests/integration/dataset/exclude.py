#!/usr/bin/env python3
"""Names left out of an import ("exclude": [...] in POST /v1/datasets, --exclude on the CLI), through
the agent's real HTTP server on loopback and the real engine on real files: a project tree with a
.venv, __pycache__ folders (and a file of that name), a .git folder and a symlink named .venv lands
in the target as exactly its other files, byte for byte, and only those are counted; the same job
again copies nothing; a file that an earlier import without the list copied stays in the target; a
`move` deletes only what it copied and leaves the excluded entries, and the folders holding them, in
the source; malformed lists are refused with a 400 that names `exclude`, before anything is made.

  exclude.py --agent build/linux-only/linux/tfwsl-agent
"""

import argparse
import os
import shutil
import subprocess
import sys

from agent_server import run_with_agent
from dataset_test_support import check, snapshot

EXCLUDE = [".venv", "__pycache__", ".git"]

# Relative path -> content; None for a symlink (its target follows in SYMLINKS).
KEPT_FILES = {
    "README.md": b"# project\n",
    "src/main.py": b"print('hello')\n",
    "src/pkg/__init__.py": b"",
    "src/pkg/model.py": b"class Model: pass\n",
    "data/weights.bin": os.urandom(300 << 10),
    ".gitignore": b".venv/\n",                  # a name that merely starts like an excluded one
    "git/HEAD": b"not the .git folder\n",
    "docs/x.venv": b"suffix, not the name\n",
    "docs/.Git/config": b"names match case-sensitively\n",
}
EXCLUDED_FILES = {
    ".venv/lib/x.py": b"import os\n",
    ".venv/pyvenv.cfg": b"home = /usr/bin\n",
    "src/__pycache__/a.pyc": b"\x00compiled\x00",
    "src/pkg/__pycache__/model.cpython-312.pyc": b"\x00compiled too\x00",
    ".git/objects/ab": os.urandom(4096),
    ".git/HEAD": b"ref: refs/heads/main\n",
    "docs/__pycache__": b"a file, not a folder, of an excluded name\n",
}
SYMLINKS = {"tools/.venv": "../.venv", "tools/run": "../src/main.py"}
KEPT_SYMLINKS = {"tools/run"}
KEPT_COUNT = len(KEPT_FILES) + len(KEPT_SYMLINKS)


def make_project(root):
    for rel, data in {**KEPT_FILES, **EXCLUDED_FILES}.items():
        path = os.path.join(root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data)
    for rel, target in SYMLINKS.items():
        os.makedirs(os.path.dirname(os.path.join(root, rel)), exist_ok=True)
        os.symlink(target, os.path.join(root, rel))


def expected_kept(source_snapshot):
    kept = set(KEPT_FILES) | KEPT_SYMLINKS
    return {rel: entry for rel, entry in source_snapshot.items() if rel.decode() in kept}


def folders_under(root):
    found = set()
    for dirpath, dirnames, _ in os.walk(root):
        for name in dirnames:
            rel = os.path.relpath(os.path.join(dirpath, name), root)
            if not rel.startswith(".tfwsl-import") and not os.path.islink(os.path.join(dirpath, name)):
                found.add(rel)
    return found


def check_totals(job, copied, skipped, what):
    check(job["state"] == "succeeded", f"{what}: the job did not succeed: {job}")
    progress = job["progress"]
    check(progress["files_total"] == KEPT_COUNT, f"{what}: files_total {progress['files_total']}, not {KEPT_COUNT}")
    check(progress["files_done"] == KEPT_COUNT, f"{what}: files_done {progress['files_done']}, not {KEPT_COUNT}")
    check(progress["files_copied"] == copied and progress["files_skipped"] == skipped,
          f"{what}: copied {progress['files_copied']} / skipped {progress['files_skipped']}, not {copied} / {skipped}")
    check(progress["problems"] == 0, f"{what}: problems: {job}")


def copy_with_exclude(agent, root):
    source, target = os.path.join(root, "project"), os.path.join(root, "copy")
    make_project(source)
    before = snapshot(source)
    want = expected_kept(before)
    status, job = agent.run_job({"source": source, "target": target, "exclude": EXCLUDE})
    check(status == 202, f"the import was refused: {status} {job}")
    check_totals(job, KEPT_COUNT, 0, "first import")
    got = snapshot(target)
    check(got == want, f"the target is not the kept files: extra {sorted(set(got) - set(want))}, "
                       f"missing {sorted(set(want) - set(got))}")
    folders = folders_under(target)
    for excluded in (".venv", ".git", "src/__pycache__", "src/pkg/__pycache__"):
        check(excluded not in folders, f"the excluded folder {excluded} was made in the target")
    check(job.get("exclude") == EXCLUDE, f"the job does not show its exclude list: {job.get('exclude')}")
    check(snapshot(source) == before, "a copy changed the source")
    print(f"ok: {KEPT_COUNT} kept entries copied byte for byte, the excluded ones left out and not counted")

    status, job = agent.run_job({"source": source, "target": target, "exclude": EXCLUDE})
    check(status == 202, f"the second import was refused: {status} {job}")
    check_totals(job, 0, KEPT_COUNT, "second import")
    check(snapshot(target) == want, "the second import changed the target")
    print("ok: the same import again copies nothing")
    return source


def earlier_copy_stays(agent, root, source):
    target = os.path.join(root, "earlier")
    status, job = agent.run_job({"source": source, "target": target})
    check(status == 202 and job["state"] == "succeeded", f"the import without exclude: {status} {job}")
    everything = snapshot(target)
    check(b".venv/lib/x.py" in everything, "the import without exclude left .venv out")
    status, job = agent.run_job({"source": source, "target": target, "exclude": EXCLUDE})
    check(status == 202, f"the import with exclude was refused: {status} {job}")
    check_totals(job, 0, KEPT_COUNT, "exclude after a full import")
    check(snapshot(target) == everything, "the import with exclude changed what an earlier one copied")
    print("ok: files an earlier import copied stay in the target when they are excluded now")


def move_with_exclude(agent, root, project):
    source, target = os.path.join(root, "moving"), os.path.join(root, "moved")
    shutil.copytree(project, source, symlinks=True)
    before = snapshot(source)
    status, job = agent.run_job({"source": source, "target": target, "mode": "move", "exclude": EXCLUDE})
    check(status == 202, f"the move was refused: {status} {job}")
    check_totals(job, KEPT_COUNT, 0, "move")
    check(job["progress"]["files_moved"] == KEPT_COUNT, f"files_moved: {job['progress']}")
    check(snapshot(target) == expected_kept(before), "the move's target is not the kept files")
    left = snapshot(source)
    want_left = {rel: entry for rel, entry in before.items()
                 if rel.decode() in EXCLUDED_FILES or rel.decode() in set(SYMLINKS) - KEPT_SYMLINKS}
    check(left == want_left, f"the move's source: extra {sorted(set(left) - set(want_left))}, "
                             f"missing {sorted(set(want_left) - set(left))}")
    folders = folders_under(source)
    for kept in (".venv/lib", ".git/objects", "src/__pycache__", "src/pkg/__pycache__", "docs", "tools"):
        check(kept in folders, f"the folder {kept} holding excluded entries was removed")
    for emptied in ("data", "git", "docs/.Git"):
        check(emptied not in folders, f"the emptied folder {emptied} was left in the source")
    print("ok: a move deletes only what it copied; the excluded entries and their folders stay")


def bad_lists(agent, root, source):
    target = os.path.join(root, "never")
    bad = [".git", {"a": 1}, None, 7, [1], [None], [""], ["a/b"], ["/"], ["a\u0000b"], ["."], [".."],
           ["x" * 256], [f"n{i}" for i in range(65)]]
    for value in bad:
        status, answer = agent.request("POST", "/v1/datasets", {"source": source, "target": target, "exclude": value})
        shown = repr(value)[:60]
        check(status == 400, f"exclude {shown}: expected 400, got {status} {answer}")
        check(answer["error"]["code"] == "invalid_input" and "'exclude'" in answer["error"]["message"],
              f"exclude {shown}: the refusal does not name the field: {answer}")
    check(not os.path.exists(target), "a refused request made the target")
    print(f"ok: {len(bad)} malformed lists refused (400 naming 'exclude'), e.g. {answer['error']['message']}")
    edge = [f"n{i}" for i in range(63)] + ["é" * 127 + "x"]  # 64 names, the last one 255 bytes
    status, job = agent.run_job({"source": source, "target": os.path.join(root, "edge"), "exclude": edge})
    check(status == 202 and job["state"] == "succeeded", f"64 names, one of 255 bytes: {status} {job}")
    print("ok: 64 names, one of 255 bytes, accepted")


def cli_exclude(agent_binary, root, source):
    target = os.path.join(root, "cli")
    argv = [agent_binary, "dataset", "import", "--source", source, "--target", target]
    result = subprocess.run([*argv, *[arg for name in EXCLUDE for arg in ("--exclude", name)]], capture_output=True)
    check(result.returncode == 0, f"the CLI import failed: {result.returncode} {result.stderr!r}")
    check(snapshot(target) == expected_kept(snapshot(source)), "the CLI's target is not the kept files")
    refused = subprocess.run([*argv, "--exclude", "a/b"], capture_output=True)
    err = refused.stderr.decode(errors="replace")
    check(refused.returncode == 2 and "--exclude" in err, f"--exclude a/b: exit {refused.returncode}: {err}")
    print("ok: tfwsl-agent dataset import --exclude (repeatable) leaves the same names out; a/b refused")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--agent", required=True)
    args = parser.parse_args()

    def cases(agent, work, root):
        project = copy_with_exclude(agent, root)
        earlier_copy_stays(agent, root, project)
        move_with_exclude(agent, root, project)
        bad_lists(agent, root, project)
        cli_exclude(args.agent, root, project)

    return run_with_agent(args.agent, "tfwsl-exclude-", cases)

if __name__ == "__main__":
    sys.exit(main())
