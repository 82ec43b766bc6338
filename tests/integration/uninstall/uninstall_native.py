#!/usr/bin/env python3
"""`tfwsl uninstall` natively, in a world the test's own earlier commands fill (a temporary HOME,
TFWSL_AGENT_PATH and TFWSL_WSLCONFIG, as integration.agent_service.native has them; nothing outside
the temporary folder is written):

1. `tfwsl wslconfig set` twice (two backups and the lock beside the user's .wslconfig),
   `tfwsl agent start --yes` (the agent installed, running, its state in ~/.config/tfwsl), and
   `tfwsl-agent provision --check --state-dir` (provision's state folder, its logs folder and lock);
   the user's own files beside them: ~/.config/tfwsl/profile.yaml and .wslconfig.notes.
2. `uninstall --dry-run --json` lists exactly what those commands made (and leaves the user's files,
   .wslconfig and its first backup alone), and removes nothing.
3. `uninstall` without --yes off a terminal removes nothing (exit 2).
4. `uninstall --yes --json` removes exactly those, stops the agent, and the user's files survive.
5. Links planted where tfwsl's folders were (the agent's folder, the state folder, ~/.cache/tfwsl)
   to folders holding files of tfwsl's names: listed as left alone, never followed.
Each --json output is validated against docs/schema/uninstall.schema.json when jsonschema is there."""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "schema"))
import schema_support as ss  # noqa: E402

failures = []


def fail(message):
    print("FAILED:", message)
    failures.append(message)


def tree(root):
    """Every path under root (links not followed), for "nothing changed"."""
    out = set()
    for folder, dirs, files in os.walk(root):
        for name in dirs + files:
            out.add(os.path.relpath(os.path.join(folder, name), root))
    return out


class World:
    def __init__(self, args, d):
        self.a, self.d = args, d
        self.home = os.path.join(d, "home")
        self.config = os.path.join(self.home, ".config", "tfwsl")
        self.agent_dir = os.path.join(d, "lib", "tfwsl")
        self.agent = os.path.join(self.agent_dir, "tfwsl-agent")
        self.state = os.path.join(d, "state", "provision")
        self.win = os.path.join(d, "win")
        self.wslconfig = os.path.join(self.win, ".wslconfig")
        os.makedirs(self.home)
        os.makedirs(self.win)
        self.env = dict(os.environ, HOME=self.home, TFWSL_AGENT_PATH=self.agent, TFWSL_WSLCONFIG=self.wslconfig)
        self.schemas = ss.load_schemas(args.schemas) if ss.jsonschema else None

    def run(self, argv, program=None):
        r = subprocess.run([program or self.a.tfwsl, *argv], capture_output=True, text=True, env=self.env,
                           stdin=subprocess.DEVNULL, timeout=180)
        print(f"$ {' '.join(argv)} -> {r.returncode}")
        return r

    def uninstall(self, *extra):
        r = self.run(["uninstall", "--state-dir", self.state, "--json", *extra])
        try:
            doc = json.loads(r.stdout)
        except json.JSONDecodeError:
            fail(f"uninstall {extra}: no JSON (exit {r.returncode}): {r.stdout!r} {r.stderr!r}")
            return r, {"items": []}
        if self.schemas:
            for problem in ss.problems(self.schemas, "uninstall", doc):
                fail(f"uninstall {extra}: the JSON does not validate: {problem}")
        return r, doc


def items(doc):
    return sorted((i["action"], i["kind"], i["path"]) for i in doc["items"])


def make_things(w):
    """The earlier commands, each of which the list must account for."""
    with open(w.wslconfig, "w") as f:
        f.write("[wsl2]\nmemory=8GB\n")
    with open(w.wslconfig + ".notes", "w") as f:
        f.write("the user's own notes beside .wslconfig\n")
    for setting in ("memory=12GB", "processors=4"):
        r = w.run(["wslconfig", "set", setting, "--yes"])
        if r.returncode != 0:
            fail(f"wslconfig set {setting}: {r.stdout!r} {r.stderr!r}")
    r = w.run(["agent", "start", "--yes", "--agent", w.a.agent])
    if r.returncode != 0:
        fail(f"agent start: {r.stderr!r}")
    # --user: a fresh machine has no user of its own for the venv (only root), and --check needs one.
    r = w.run(["provision", "--check", "--state-dir", w.state, "--profile", "tf-2.15-cuda-12.2", "--user", "root"],
              program=w.a.agent)
    if not os.path.isdir(w.state):
        fail(f"provision --check made no state folder (exit {r.returncode}): {r.stderr[-600:]!r}")
    with open(os.path.join(w.config, "profile.yaml"), "w") as f:
        f.write("extends: tf-2.15-cuda-12.2\n")


def expected_plan(w):
    backups = sorted(n for n in os.listdir(w.win) if ".tfwsl-backup-" in n)
    if len(backups) != 2:
        fail(f"two wslconfig set runs left {backups}")
    newest, oldest = os.path.join(w.win, backups[-1]), os.path.join(w.win, backups[0])
    config_files = sorted(n for n in os.listdir(w.config) if n != "profile.yaml")
    if set(config_files) - {"agent.token", "agent.json", "agent.log", "agent.err"}:
        fail(f"agent start made files the test does not know: {config_files}")
    state_files = sorted(os.listdir(w.state))
    remove = [("process", ""), ("file", w.agent), ("folder", w.agent_dir), ("file", newest),
              ("folder", os.path.join(w.state, "logs")), ("folder", w.state)]
    # `wslconfig set` removes its lock file as it lets go; only a killed run leaves one behind.
    if os.path.lexists(w.wslconfig + ".tfwsl-lock"):
        remove.append(("file", w.wslconfig + ".tfwsl-lock"))
    remove += [("file", os.path.join(w.config, n)) for n in config_files]
    remove += [("file", os.path.join(w.state, n)) for n in state_files if n != "logs"]
    leave = [("file", w.wslconfig), ("file", oldest), ("file", os.path.join(w.config, "profile.yaml")),
             ("folder", w.config)]
    return sorted([("remove", k, p) for k, p in remove] + [("leave", k, p) for k, p in leave]), [newest, oldest]


def check_plan_and_apply(w):
    plan, (newest, oldest) = expected_plan(w)
    before = tree(w.d)
    r, doc = w.uninstall("--dry-run")
    if r.returncode != 0 or items(doc) != plan:
        fail(f"--dry-run (exit {r.returncode}) listed\n  {items(doc)}\nexpected\n  {plan}")
    if tree(w.d) != before or doc.get("applied") is not False:
        fail(f"--dry-run changed something: {sorted(before ^ tree(w.d))}")
    r = w.run(["uninstall", "--state-dir", w.state])
    if r.returncode != 2 or "--yes" not in r.stderr or tree(w.d) != before:
        fail(f"without --yes off a terminal: exit {r.returncode}, {r.stderr!r}")
    pid = json.load(open(os.path.join(w.config, "agent.json")))["pid"]
    r, doc = w.uninstall("--yes")
    done = sorted(("removed" if a == "remove" else a, k, p) for a, k, p in plan)
    if r.returncode != 0 or items(doc) != done or not doc.get("applied"):
        fail(f"--yes (exit {r.returncode}) gave\n  {items(doc)}\nexpected\n  {done}\n{r.stderr}")
    for action, _, path in plan:
        if path and (os.path.lexists(path) != (action == "leave")):
            fail(f"after --yes, {path} {'is gone' if action == 'leave' else 'is still there'}")
    if os.path.exists(f"/proc/{pid}") and "tfwsl-agent" in open(f"/proc/{pid}/cmdline").read():
        fail(f"the agent (pid {pid}) still runs after uninstall --yes")
    if open(w.wslconfig + ".notes").read() != "the user's own notes beside .wslconfig\n":
        fail("the user's .wslconfig.notes changed")
    if open(oldest).read() != "[wsl2]\nmemory=8GB\n" or newest == oldest:
        fail("the first backup no longer holds the original .wslconfig")


def check_planted_links(w):
    planted = {}
    for n, (place, names) in enumerate(((w.agent_dir, ["tfwsl-agent"]), (w.state, ["lock", "journal.jsonl", "processes.jsonl"]),
                                        (os.path.join(w.home, ".cache", "tfwsl"), ["pip-1.log"]))):
        decoy = os.path.join(w.d, f"decoy-{n}")
        os.makedirs(decoy)
        for name in names:
            if name == "tfwsl-agent":
                shutil.copy2(w.a.agent, os.path.join(decoy, name))  # it answers as tfwsl-agent, through the link
            else:
                with open(os.path.join(decoy, name), "w") as f:
                    f.write("not tfwsl's to remove\n")
        os.makedirs(os.path.dirname(place), exist_ok=True)
        os.symlink(decoy, place)
        planted[place] = (decoy, names)
    r, doc = w.uninstall("--yes")
    left = {i["path"] for i in doc["items"] if i["action"] == "leave" and "not followed" in i["why"]}
    if r.returncode != 0 or doc.get("to_remove") != 0 or not set(planted) <= left:
        fail(f"planted links: exit {r.returncode}, to_remove {doc.get('to_remove')}, left alone {sorted(left)}")
    for place, (decoy, names) in planted.items():
        if not os.path.islink(place) or sorted(os.listdir(decoy)) != sorted(names):
            fail(f"the link at {place} was followed or removed: {os.listdir(decoy)}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tfwsl", required=True)
    ap.add_argument("--agent", required=True)
    ap.add_argument("--schemas", required=True)
    a = ap.parse_args()
    d = tempfile.mkdtemp(prefix="tfwsl-uninstall-")
    w = World(a, d)
    try:
        make_things(w)
        if not failures:
            check_plan_and_apply(w)
        if not failures:
            check_planted_links(w)
    finally:
        subprocess.run([a.tfwsl, "agent", "stop"], env=w.env, capture_output=True, timeout=60)
        time.sleep(0.1)
        shutil.rmtree(d, ignore_errors=True)
    print("ok" if not failures else f"{len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
