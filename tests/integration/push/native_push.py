#!/usr/bin/env python3
"""`tfwsl data push` natively over the real bridge (tfwsl starts the real tfwsl-agent as a child;
the job runs in the real engine on real files): a tree of 3,006 files generated here is pushed with
--json; a first push is interrupted with SIGINT mid-way (exit 130, the job cancelled through the API,
every file already in the target whole); a second push of the same source resumes (files skipped)
and the target equals the source byte for byte; --dry-run copies nothing; without --to the data
lands in the agent's ~/datasets; --move is refused without --yes off a terminal and with it leaves
no source file whose copy is not whole in the target; --exclude leaves .venv, __pycache__ and .git
out of the measure, the job and the target (a/b refused before anything); every --json output is validated against docs/schema/data-push.schema.json when Python's jsonschema is there."""
import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "schema"))
from push_tree import compare_trees, digest_tree, make_tree, partial_copy_problems  # noqa: E402
import schema_support  # noqa: E402

failures = []


def fail(message):
    print("FAILED:", message)
    failures.append(message)


def validate(schemas, document, what):
    if schemas is None:
        return
    for line in schema_support.problems(schemas, "data-push", document):
        fail(f"{what}: schema: {line}")


def push(a, source, to, *extra, timeout=300):
    argv = [a.tfwsl, "data", "push", source, "--to", to, "--agent", a.agent, *extra]
    return subprocess.run(argv, capture_output=True, text=True, timeout=timeout)


def interrupted_push(a, source, to, target, schemas):
    """Starts a push with one file in flight, SIGINTs tfwsl once the first batch is committed."""
    p = subprocess.Popen([a.tfwsl, "data", "push", source, "--to", to, "--agent", a.agent, "--jobs", "1", "--json"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    manifest = os.path.join(target, ".tfwsl-import", "manifest")
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and p.poll() is None:
        if os.path.exists(manifest) and os.path.getsize(manifest) > 200:
            break
        time.sleep(0.01)
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=120)
    if p.returncode != 130:
        fail(f"interrupted push exited {p.returncode}, not 130: {err[-800:]}")
        return
    report = json.loads(out)
    validate(schemas, report, "interrupted push")
    if report["job"] and report["job"]["state"] == "succeeded":
        return False  # the copy ended before the SIGINT landed: nothing was cut
    if report["outcome"] != "interrupted" or report["job"]["state"] != "cancelled":
        fail(f"interrupted push: outcome {report['outcome']}, job {report['job'] and report['job']['state']}")
    problems, count = partial_copy_problems(source, target)
    if count == 3006 and not problems:
        return False  # every file was placed before the cancel landed (a loaded machine): nothing was cut
    for line in problems:
        fail(f"after the interruption: {line}")
    if not 0 < count < 3006:
        fail(f"after the interruption the target holds {count} files, not part of 3006")
    print(f"interrupted after {count} of 3006 files; stderr: {err.strip()[-200:]}")
    return True


def cut_push(a, source, to, target, schemas):
    """interrupted_push until one round is really cut (at most three): on a loaded machine the copy
    can end before the SIGINT lands; such a round starts again from an empty target."""
    for round_number in range(1, 4):
        if interrupted_push(a, source, to, target, schemas) is not False:
            return
        print(f"round {round_number}: the copy ended before the SIGINT landed (job succeeded); again")
        shutil.rmtree(target)
    fail("interrupted push: in three rounds the copy always ended before the SIGINT landed")


def excluded_push(a, d, to, schemas):
    """--exclude (repeatable): the names are left out of the measure, the job and the target."""
    project = os.path.join(d, "project")
    kept = {"main.py": "print(1)\n", "pkg/mod.py": "x = 1\n", ".gitignore": ".venv\n", "notes.venv": "kept\n"}
    left_out = {".venv/lib/x.py": "venv\n", "pkg/__pycache__/mod.pyc": "pyc\n", ".git/HEAD": "ref\n",
                "__pycache__": "a file of that name\n"}
    for rel, text in {**kept, **left_out}.items():
        os.makedirs(os.path.dirname(os.path.join(project, rel)), exist_ok=True)
        with open(os.path.join(project, rel), "w") as f:
            f.write(text)
    names = ["--exclude", ".venv", "--exclude", "__pycache__", "--exclude", ".git"]
    r = push(a, project, to, *names, "--json")
    report = json.loads(r.stdout or "{}")
    validate(schemas, report, "--exclude")
    target = os.path.join(to, "project")
    if r.returncode != 0 or report["tree"]["files"] != len(kept) or report["job"]["progress"]["files_total"] != len(kept):
        fail(f"--exclude: exit {r.returncode}, tree {report.get('tree')}, job {report.get('job')}, {r.stderr[-300:]!r}")
    landed = digest_tree(target)
    if sorted(landed) != sorted(kept) or any(digest_tree(project)[rel] != landed[rel] for rel in landed):
        fail(f"--exclude: the target holds {sorted(landed)}, not {sorted(kept)}")
    refused = push(a, project, os.path.join(d, "never"), "--exclude", "a/b")
    if refused.returncode != 2 or "--exclude" not in refused.stderr or os.path.exists(os.path.join(d, "never")):
        fail(f"--exclude a/b: exit {refused.returncode}, {refused.stderr[-300:]!r}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tfwsl", required=True)
    parser.add_argument("--agent", required=True)
    parser.add_argument("--schemas", required=True)
    a = parser.parse_args()
    schemas = schema_support.load_schemas(a.schemas) if schema_support.jsonschema else None
    if schemas is None:
        print("note: Python's jsonschema is missing: the --json outputs are not validated")
    with tempfile.TemporaryDirectory(prefix="tfwsl-push-") as d:
        source, to = os.path.join(d, "images"), os.path.join(d, "sets")
        os.makedirs(source)
        os.makedirs(to)
        make_tree(source)
        target = os.path.join(to, "images")

        dry = push(a, source, to, "--dry-run", "--json")
        if dry.returncode != 0:
            fail(f"--dry-run exited {dry.returncode}: {dry.stderr}")
        else:
            plan = json.loads(dry.stdout)
            validate(schemas, plan, "--dry-run")
            if plan["outcome"] != "planned" or plan["tree"]["files"] != 3006 or plan["target"]["linux_path"] != target:
                fail(f"--dry-run plan: {plan['outcome']}, {plan['tree']}, {plan['target']}")
        if os.path.exists(target):
            fail("--dry-run created the target")

        cut_push(a, source, to, target, schemas)

        started = time.monotonic()
        second = push(a, source, to, "--json")
        if second.returncode != 0:
            fail(f"second push exited {second.returncode}: {second.stderr[-800:]}")
        else:
            report = json.loads(second.stdout)
            validate(schemas, report, "second push")
            progress = report["job"]["progress"]
            if progress["files_skipped"] == 0:
                fail("the second push skipped nothing: it did not resume")
            print(f"second push: {progress['files_copied']} copied, {progress['files_skipped']} skipped, "
                  f"{time.monotonic() - started:.1f} s")
        for line in compare_trees(source, target):
            fail(f"after the second push: {line}")

        text = push(a, source, to)
        if text.returncode != 0 or f'use in code: "{target}"' not in text.stdout:
            fail(f"text push: exit {text.returncode}, stdout {text.stdout!r}")

        # Without --to the data lands in ~/datasets/NAME: the agent's home (GET /v1/info "home").
        home = os.path.join(d, "home")
        os.makedirs(home)
        small = os.path.join(d, "small")
        os.makedirs(small)
        for i in range(5):
            with open(os.path.join(small, f"{i}.txt"), "w") as f:
                f.write("x" * i)
        r = subprocess.run([a.tfwsl, "data", "push", small, "--agent", a.agent, "--json"], capture_output=True,
                           text=True, timeout=300, env=dict(os.environ, HOME=home))
        landed = os.path.join(home, "datasets", "small")
        if r.returncode != 0 or json.loads(r.stdout)["target"]["linux_path"] != landed:
            fail(f"a push without --to: exit {r.returncode}, {r.stdout[-400:]!r} {r.stderr[-400:]!r}")
        for line in compare_trees(small, landed):
            fail(f"a push without --to: {line}")

        # --move: refused without --yes when nobody can be asked (nothing deleted), then with --yes
        # every source file is gone only because its copy is whole in the target.
        moved = os.path.join(d, "moved")
        shutil.copytree(small, moved)
        refused = push(a, moved, to, "--move")
        if refused.returncode != 2 or "--yes" not in refused.stderr or len(os.listdir(moved)) != 5:
            fail(f"--move without --yes: exit {refused.returncode}, {refused.stderr[-300:]!r}, {os.listdir(moved)}")
        if os.path.exists(os.path.join(to, "moved")):
            fail("--move without --yes created the target")
        r = push(a, moved, to, "--move", "--yes", "--json")
        report = json.loads(r.stdout or "{}")
        if r.returncode != 0 or report.get("mode") != "move" or report["job"]["progress"]["files_moved"] != 5:
            fail(f"--move --yes: exit {r.returncode}, {report.get('job')}")
        validate(schemas, report, "--move --yes")
        for line in compare_trees(small, os.path.join(to, "moved")):
            fail(f"--move --yes: {line}")
        if any(files for _, _, files in os.walk(moved)):
            fail(f"--move --yes left source files: {list(os.walk(moved))}")

        excluded_push(a, d, to, schemas)

        missing = push(a, os.path.join(d, "absent"), to, "--json")
        if missing.returncode != 2:
            fail(f"a missing source exited {missing.returncode}")
        else:
            report = json.loads(missing.stdout)
            validate(schemas, report, "missing source")
            if report["outcome"] != "refused" or report["job"] is not None:
                fail(f"a missing source: {report['outcome']}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
