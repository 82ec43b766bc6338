#!/usr/bin/env python3
"""Fault injection with real processes: kill -9 the importer at chosen points of every phase of the
job, resume, and check the invariants after every kill.

Each kill lands at the Nth event of one phase (TFWSL_TEST_KILL_AT="STEP:N" makes the importer
SIGKILL itself at the Nth call of the engine's fault hook for STEP, a method of its ImportFiles port
or "scan"), with N drawn from the work that phase still has, so that kills spread over the whole job,
its last phases included, whatever the machine's speed. The phases: the scan, the copy of small
files, the copy of a large file, the commit (sync_filesystem, fsync_file, rename_into_place), the
manifest write and, with --mode move, the deletion of moved sources and the removal of emptied
source folders. Each is interrupted --kills-per-phase times.

After every kill: every file under its final name in the target is byte-identical to the source's
(sha256 via hashlib, not the importer's XXH3); nothing appears outside the target (nor, in the
target's state folder, anything but its own files); with --mode move, every source file is either
still in the source, unchanged, or whole in the target and recorded in its manifest. At the end an
unkilled run (--verify) completes and the target equals the source.

  fault_injection.py --agent build/linux/tfwsl-agent --mode copy|move [--kills-per-phase 3] [--seed 1]
"""

import argparse
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

from dataset_test_support import STATE_DIR, check, import_command, make_tree, snapshot

LARGE = 4 << 20  # the engine's own-fsync threshold: a file this large has its own fsync_file
RANGE = 8 << 20  # from this size the engine copies with copy_file_range, 8 MiB a call (copy_range)
COPY_PHASES = ["scan", "copy-small", "copy-large", "commit", "manifest"]
MOVE_PHASES = COPY_PHASES + ["move-delete", "folder-removal"]
COMMIT_STEPS = ["rename_into_place", "sync_filesystem", "fsync_file"]
STATE_ENTRIES = {b"manifest", b"manifest.tmp", b"lock", b"staging"}


def unescape(field):
    out, i = bytearray(), 0
    while i < len(field):
        if field[i:i + 1] == b"%":
            out.append(int(field[i + 1:i + 3], 16))
            i += 3
        else:
            out.append(field[i])
            i += 1
    return bytes(out)


def copy_range_works(folder):
    """Whether copy_file_range copies between two files of this folder, as the engine tries it for
    the large files (where it fails, the engine copies them with write_chunk instead)."""
    a, b = os.path.join(folder, "probe-a"), os.path.join(folder, "probe-b")
    try:
        with open(a, "wb") as f:
            f.write(b"probe")
        with open(a, "rb") as src, open(b, "wb") as dst:
            return os.copy_file_range(src.fileno(), dst.fileno(), 5) == 5
    except (OSError, AttributeError):
        return False
    finally:
        for path in (a, b):
            if os.path.exists(path):
                os.remove(path)


def manifest_records(target):
    """{path: size} of the complete records in the target's manifest (a cut-short last line is not
    a record: the importer ignores it too)."""
    try:
        with open(os.path.join(os.fsencode(target), STATE_DIR, b"manifest"), "rb") as f:
            data = f.read()
    except FileNotFoundError:
        return {}
    lines = data.split(b"\n")[1:-1]  # the header; the part after the last newline is incomplete
    return {unescape(fields[3]): int(fields[1]) for fields in (line.split(b" ") for line in lines) if len(fields) == 5}


class Tree:
    """The source as generated, and where the job stands."""

    def __init__(self, args, work):
        self.args, self.work = args, work
        self.source, self.target = os.path.join(work, "source"), os.path.join(work, "target")
        self.generation = 0
        self.copy_range = copy_range_works(work)
        self.regenerate()

    def regenerate(self):
        shutil.rmtree(self.source, ignore_errors=True)
        shutil.rmtree(self.target, ignore_errors=True)
        make_tree(self.source, self.args.seed + self.generation, files=self.args.files, big_mb=self.args.big_mb,
                  dirs=self.args.dirs)
        self.generation += 1
        self.expected = snapshot(self.source)
        self.sizes = {rel: os.lstat(os.path.join(os.fsencode(self.source), rel)).st_size for rel in self.expected}

    def restart(self):
        """A fresh start so that every phase has work again: a new target (and, for --move, a new
        source, since the old one is gone)."""
        if self.args.mode == "move":
            self.regenerate()
        else:
            shutil.rmtree(self.target, ignore_errors=True)

    def event_counts(self):
        """For each step, how many hook events the next run will have: exact for most steps, an
        estimate (possibly high) for the per-batch ones."""
        in_source = snapshot(self.source) if self.args.mode == "move" else self.expected
        in_target = snapshot(self.target) if os.path.isdir(self.target) else {}
        records = manifest_records(self.target)
        pending = [rel for rel in in_source if in_target.get(rel) != self.expected[rel] or rel not in records]
        files = [rel for rel in pending if self.expected[rel][0] == "file"]
        small = [rel for rel in files if 0 < self.sizes[rel] < LARGE]
        large = [rel for rel in files if self.sizes[rel] >= LARGE]
        unsynced = [rel for rel in pending if self.expected[rel][0] == "link" or self.sizes[rel] < LARGE]
        has_manifest = os.path.exists(os.path.join(self.target, ".tfwsl-import", "manifest"))
        # A batch commits at 512 files (the engine's k_batch_files); batches can merge while one
        # commits, so the syncfs and manifest counts may fall short: such a run completes, and
        # the job starts over.
        batches = (len(pending) + 511) // 512
        # copy_file_range moves 8 MiB a call and is called once more to see the end: kills can land
        # part way through a large file. Where it cannot be used, a large file's copy is killed at
        # its own fsync_file instead (its write_chunk calls mix with the small files').
        range_files = [rel for rel in large if self.sizes[rel] >= RANGE] if self.copy_range else []
        bounds = {"scan": len(in_source), "write_chunk": len(small),
                  "copy_range": sum(-(-self.sizes[rel] // RANGE) + 1 for rel in range_files),
                  "fsync_file": len(large), "sync_filesystem": (len(unsynced) + 511) // 512,
                  "rename_into_place": len(pending), "write_manifest": (0 if has_manifest else 1) + batches}
        if self.args.mode == "move":
            bounds["unlink_source"] = len(in_source)
            bounds["remove_source_folder"] = sum(1 for top, dirnames, _ in os.walk(self.source) for d in dirnames
                                  if not os.path.islink(os.path.join(top, d)))  # os.walk lists links to folders
        return bounds


def step_for(phase, bounds, rng, commit_turn):
    """The hook step a kill in this phase uses, or None when the phase has no work left."""
    if phase == "commit":
        for step in COMMIT_STEPS[commit_turn % 3:] + COMMIT_STEPS[:commit_turn % 3]:
            if bounds[step] > 0:
                return step
        return None
    if phase == "copy-large":
        step = "copy_range" if bounds["copy_range"] > 0 else "fsync_file"
        return step if bounds[step] > 0 else None
    step = {"scan": "scan", "copy-small": "write_chunk", "manifest": "write_manifest",
            "move-delete": "unlink_source", "folder-removal": "remove_source_folder"}[phase]
    return step if bounds[step] > 0 else None


def check_invariants(tree, mode):
    """After a kill: whole files only under final names, nothing outside the target, and (--move)
    no source file gone unless its copy is whole in the target and recorded in the manifest."""
    check(sorted(os.listdir(tree.work)) == ["source", "target"][: 2 if os.path.isdir(tree.target) else 1],
          f"something appeared outside the target: {sorted(os.listdir(tree.work))}")
    in_target = snapshot(tree.target) if os.path.isdir(tree.target) else {}
    for rel, entry in in_target.items():
        check(rel in tree.expected, f"unexpected file in the target: {rel!r}")
        check(entry == tree.expected[rel], f"partial or wrong file under its final name: {rel!r}")
    state = os.path.join(os.fsencode(tree.target), STATE_DIR)
    if os.path.isdir(state):
        extra = set(os.listdir(state)) - STATE_ENTRIES
        check(not extra, f"unexpected entries in the state folder: {extra}")
    in_source = snapshot(tree.source)
    for rel, entry in in_source.items():
        check(tree.expected.get(rel) == entry, f"source file changed or appeared: {rel!r}")
    if mode != "move":
        check(in_source == tree.expected, "a copy changed the source")
        return
    records = manifest_records(tree.target)
    for rel, entry in tree.expected.items():
        if rel in in_source:
            continue
        check(in_target.get(rel) == entry, f"file lost: {rel!r} left the source but is not whole in the target")
        check(records.get(rel) == tree.sizes[rel], f"{rel!r} left the source before its copy was recorded")


def run_once(agent, tree, extra, kill_at):
    env = dict(os.environ, TFWSL_TEST_KILL_AT=kill_at) if kill_at else os.environ
    r = subprocess.run(import_command(agent, tree.source, tree.target, *extra), env=env, capture_output=True)
    return r.returncode, r.stderr.decode(errors="replace")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--agent", required=True)
    parser.add_argument("--mode", choices=["copy", "move"], default="copy")
    parser.add_argument("--kills-per-phase", type=int, default=3)
    parser.add_argument("--max-runs", type=int, default=80)
    parser.add_argument("--seed", type=int, default=20261129)
    parser.add_argument("--files", type=int, default=1500)
    parser.add_argument("--dirs", type=int, default=40)
    parser.add_argument("--big-mb", type=int, default=12)  # over copy_file_range's 8 MiB and the own-fsync 4 MiB
    args = parser.parse_args()

    started = time.monotonic()
    rng = random.Random(args.seed + (1 if args.mode == "move" else 0))
    phases = MOVE_PHASES if args.mode == "move" else COPY_PHASES
    extra = ["--move"] if args.mode == "move" else []
    work = os.path.realpath(tempfile.mkdtemp(prefix=f"tfwsl-fault-{args.mode}-", dir=os.environ.get("TMPDIR", "/tmp")))
    try:
        tree = Tree(args, work)
        print(f"tree: {len(tree.expected)} entries in {tree.source}", flush=True)
        kills = {phase: 0 for phase in phases}
        runs = restarts = 0
        while any(n < args.kills_per_phase for n in kills.values()):
            check(runs < args.max_runs, f"{runs} runs and some phases still not interrupted enough: {kills}")
            bounds = tree.event_counts()
            needed = [p for p in phases if kills[p] < args.kills_per_phase]
            choices = [(p, step_for(p, bounds, rng, kills[p])) for p in needed]
            choices = [(p, s) for p, s in choices if s is not None]
            if not choices:  # the phases still needed have no work left: start over
                tree.restart()
                restarts += 1
                continue
            fewest = min(kills[p] for p, _ in choices)
            phase, step = rng.choice([(p, s) for p, s in choices if kills[p] == fewest])
            nth = rng.randint(1, bounds[step])
            runs += 1
            code, err = run_once(args.agent, tree, extra, f"{step}:{nth}")
            check(code in (-9, 0), f"run {runs} ({step}:{nth}): import failed with {code}: {err}")
            check_invariants(tree, args.mode)
            killed = code == -9
            if killed:
                kills[phase] += 1
            in_target = len(snapshot(tree.target)) if os.path.isdir(tree.target) else 0
            print(f"run {runs:2d}: {phase:14s} {step}:{nth}/{bounds[step]} "
                  f"{'killed' if killed else 'completed (fewer events than expected)'}; "
                  f"{in_target}/{len(tree.expected)} entries in the target; invariants hold", flush=True)
            if not killed:
                check(snapshot(tree.target) == tree.expected, f"run {runs}: completed target differs from the source")
                tree.restart()
                restarts += 1

        code, err = run_once(args.agent, tree, extra + ["--verify"], None)
        check(code == 0, f"final resume failed ({code}): {err}")
        check_invariants(tree, args.mode)
        check(snapshot(tree.target) == tree.expected, "after the final resume the target differs from the source")
        leftovers = os.listdir(os.path.join(tree.target, ".tfwsl-import", "staging"))
        check(not leftovers, f"temporary files left in staging: {leftovers[:5]}")
        if args.mode == "move":
            check(os.listdir(tree.source) == [], f"--move left {os.listdir(tree.source)[:5]} in the source")
        print(f"PASS: {runs} kill runs ({', '.join(f'{p} {n}' for p, n in kills.items())}), {restarts} fresh "
              f"start(s); target byte-identical to the source ({len(tree.expected)} entries); "
              f"{time.monotonic() - started:.1f} s")
        return 0
    except AssertionError as failure:
        print(f"FAIL: {failure}", file=sys.stderr)
        return 1
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
