#!/usr/bin/env python3
"""The real --json outputs of `tfwsl profile validate|show|diff` validated against
docs/schema/profile-*.schema.json: validate of a good and of a broken file, show of a project's
tfwsl.yaml, diff against a stand-in machine (tests/integration/profile/fake_machine.py: the real
tfwsl-agent observing the fake distro) with no drift and with drifts; and doctored outputs that must
fail. Exit 0 all valid, 1 a problem, 77 the jsonschema module is missing (skipped)."""
import argparse
import copy
import json
import os
import sys
import tempfile

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
sys.path.insert(0, os.path.join(here, "..", "profile"))
import schema_support as ss  # noqa: E402
from fake_machine import FakeMachine, require_fake_gpu  # noqa: E402

failures = []


def check(schemas, key, document, what, valid=True):
    found = ss.problems(schemas, key, document)
    if valid and ss.schema_key_of(document) != key:
        found.insert(0, f"envelope names {document.get('schema')}, expected tfwsl.{key}")
    if bool(found) != (not valid):
        failures.append(what)
        print(f"FAILED: {what}:", *(found[:20] or ["validates, but should not"]), sep="\n    ")
    else:
        print(f"ok: {what}")


def run_json(m, argv, cwd, what):
    p = m.run(argv, cwd)
    try:
        return json.loads(p.stdout)
    except json.JSONDecodeError:
        sys.exit(f"FAILED: {what} printed no JSON (exit {p.returncode}):\n{p.stdout}\n{p.stderr}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--schemas", required=True)
    ap.add_argument("--tfwsl", required=True)
    ap.add_argument("--agent", required=True)
    ap.add_argument("--fake-distro", required=True)
    ap.add_argument("--fake-gpu", required=True)
    a = ap.parse_args()
    ss.require_jsonschema()
    require_fake_gpu(os.path.abspath(a.fake_gpu))
    schemas = ss.load_schemas(a.schemas)
    tfwsl, agent = os.path.abspath(a.tfwsl), os.path.abspath(a.agent)
    with tempfile.TemporaryDirectory() as work:
        m = FakeMachine(work, os.path.abspath(a.fake_distro), os.path.abspath(a.fake_gpu))
        with open(os.path.join(work, "tfwsl.yaml"), "w") as f:
            f.write('extends: builtin:tf-2.15-cuda-12.2\nname: schema\nwsl: { memory: 16GB }\ngpu: { driver: "546.80" }\n')
        with open(os.path.join(work, "bad.yaml"), "w") as f:
            f.write("name: bad\ncdua: 1\nwsl: { memory: 16 GB }\n")
        good = run_json(m, [tfwsl, "profile", "validate", "--json", "tfwsl.yaml"], work, "validate --json")
        check(schemas, "profile-validate", good, "profile validate --json (valid)")
        bad = run_json(m, [tfwsl, "profile", "validate", "--json", "bad.yaml"], work, "validate --json bad")
        check(schemas, "profile-validate", bad, "profile validate --json (errors)")
        if bad.get("valid") is not False or not bad.get("issues"):
            failures.append("bad valid")
            print("FAILED: the broken file is said valid:", bad)
        show = run_json(m, [tfwsl, "profile", "show", "--json"], work, "show --json")
        check(schemas, "profile-show", show, "profile show --json")
        same = run_json(m, [tfwsl, "profile", "diff", "--json", "--agent", agent], work, "diff --json")
        check(schemas, "profile-diff", same, "profile diff --json (no drift)")
        m.driver, m.tf_version, m.memory = "537.58", "2.16.1", "8GB"
        drifted = run_json(m, [tfwsl, "profile", "diff", "--json", "--agent", agent], work, "diff --json drifts")
        check(schemas, "profile-diff", drifted, "profile diff --json (three drifts)")
        if len(drifted.get("drifts", [])) != 3:
            failures.append("drifts")
            print("FAILED: expected three drifts:", drifted.get("drifts"))
        blind = run_json(m, [tfwsl, "profile", "diff", "--json", "--agent", os.path.join(work, "no-agent")], work,
                         "diff --json without an agent")
        check(schemas, "profile-diff", blind, "profile diff --json (incomplete: no agent)")
        unsaid = copy.deepcopy(blind)
        unsaid["incomplete_because"] = None
        check(schemas, "profile-diff", unsaid, "an incomplete diff that does not say why is rejected", valid=False)
        broken = copy.deepcopy(drifted)
        broken["drifts"][0].pop("fix", None)
        check(schemas, "profile-diff", broken, "a drift without its fix is rejected", valid=False)
        extra = copy.deepcopy(show)
        extra["settings"][0]["source"] = "x"
        check(schemas, "profile-show", extra, "a setting with an unknown field is rejected", valid=False)
        wrong = copy.deepcopy(good)
        wrong["schema"]["name"] = "tfwsl.profile-show"
        check(schemas, "profile-validate", wrong, "a validate output named profile-show is rejected", valid=False)
    if failures:
        print(f"{len(failures)} problem(s)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
