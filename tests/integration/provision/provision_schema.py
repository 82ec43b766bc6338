#!/usr/bin/env python3
"""The real `provision --dry-run --json` of both executables against docs/schema/provision.schema.json.

tfwsl provision --dry-run --json (default profile) and tfwsl-agent provision --dry-run --json must
validate, list the distro steps in order with the exact package names, and agree on them (the
same plan from the same code); a plan with an unknown field, or a step with a bad id, must not
validate. Without --profile, tfwsl provision takes the profile every command takes (docs/profiles.md):
a project's tfwsl.yaml found from a subfolder, else the built-in default. Exit 0 / 1 / 77 (no
jsonschema).
"""
import argparse
import copy
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "schema"))
import schema_support as ss  # noqa: E402

EXPECTED = [
    ("dpkg.health", []), ("driver.none-in-wsl", []), ("apt.prerequisites", ["ca-certificates", "curl"]),
    ("cuda.repository", ["cuda-keyring"]), ("cuda.toolkit", ["cuda-toolkit-12-2"]), ("apt.packages", ["python3-venv", "python3-pip"]),
    ("python.venv", []), ("tensorflow.install", ["tensorflow[and-cuda]==2.15.*", "numpy<2"]), ("tensorflow.fixups", []),
    ("env.file", []), ("tensorflow.verify", []),
]


def run(argv, cwd=None, env=None):
    p = subprocess.run(argv, capture_output=True, text=True, timeout=60, cwd=cwd, env=env)
    if p.returncode != 0:
        sys.exit(f"FAILED: {argv} exited {p.returncode}: {p.stderr}")
    return json.loads(p.stdout)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--schemas", required=True)
    ap.add_argument("--tfwsl", required=True)
    ap.add_argument("--agent", required=True)
    args = ap.parse_args()
    ss.require_jsonschema()
    schemas = ss.load_schemas(args.schemas)
    failures = []
    cli = run([args.tfwsl, "provision", "--dry-run", "--json"])
    agent = run([args.agent, "provision", "--dry-run", "--json", "--platform", "wsl", "--user", "root"])
    for what, doc in (("tfwsl provision --dry-run --json", cli), ("tfwsl-agent provision --dry-run --json", agent)):
        found = ss.problems(schemas, "provision", doc)
        print(("ok: " if not found else "FAILED: ") + f"{what} validates against provision.schema.json")
        failures += [what] if found else []
        for line in found[:10]:
            print("   ", line)
    steps = [(s["id"], s["packages"]) for s in agent["plan"]["distro_steps"]]
    if steps == EXPECTED:
        print("ok: the default profile's distro steps, in order, with the exact package names")
    else:
        failures.append("order")
        print(f"FAILED: distro steps {steps}")
    cli_ids = [s["id"] for s in cli["plan"]["distro_steps"]]
    if [i for i in cli_ids if not i.startswith("driver.")] == [i for i, _ in EXPECTED if not i.startswith("driver.")]:
        print("ok: tfwsl and tfwsl-agent plan the same distro steps")
    else:
        failures.append("same plan")
        print(f"FAILED: tfwsl plans {cli_ids}")
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, XDG_CONFIG_HOME=os.path.join(tmp, "config"))  # no user profile
        src = os.path.join(tmp, "project", "src")
        os.makedirs(src)
        with open(os.path.join(tmp, "project", "tfwsl.yaml"), "w") as f:
            f.write("name: flowers\nextends: builtin:tf-2.15-cuda-12.2\npackages: { pip: [pillow==10.1.0] }\n")
        chosen = run([args.tfwsl, "provision", "--dry-run", "--json"], cwd=src, env=env)["plan"]
        default = run([args.tfwsl, "provision", "--dry-run", "--json"], cwd=tmp, env=env)["plan"]
    install = [s["packages"] for s in chosen["distro_steps"] if s["id"] == "tensorflow.install"]
    if chosen["profile"] == "flowers" and install and "pillow==10.1.0" in install[0] and default["profile"] == "tf-2.15-cuda-12.2":
        print("ok: without --profile, the project's tfwsl.yaml (found from project/src), else the built-in default")
    else:
        failures.append("profile choice")
        print(f"FAILED: the profile chosen: {chosen['profile']} {install}, outside the project: {default['profile']}")
    tf = [s["download"] for s in agent["plan"]["distro_steps"] if s["id"] == "tensorflow.install"]
    total = agent["plan"]["download"]
    if tf and tf[0] and tf[0]["basis"] == "data" and tf[0]["bytes"] > 2_000_000_000 and total["bytes"] >= tf[0]["bytes"]:
        print("ok: the plan says what pip downloads (the known wheel sizes) and the downloads in all")
    else:
        failures.append("downloads")
        print(f"FAILED: tensorflow.install downloads {tf}, in all {total}")
    bad = copy.deepcopy(agent)
    bad["plan"]["surprise"] = 1
    bad3 = copy.deepcopy(agent)
    bad3["plan"]["distro_steps"][-4]["download"] = {"bytes": "2 GB", "approximate": True, "basis": "data", "detail": ""}
    bad2 = copy.deepcopy(agent)
    bad2["plan"]["distro_steps"][0]["id"] = "shell.run"
    for what, doc in (("a plan with an unknown field", bad), ("a step with an id outside the catalogue", bad2),
                      ("a download figure that is not a number of bytes", bad3)):
        if ss.problems(schemas, "provision", doc):
            print(f"ok: {what} is rejected")
        else:
            failures.append(what)
            print(f"FAILED: {what} validates")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
