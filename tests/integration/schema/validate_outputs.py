#!/usr/bin/env python3
"""Validates REAL --json outputs against docs/schema/*.schema.json (draft 2020-12).

native: runs the real binaries and validates what they print:
  1. tfwsl doctor --json over the real bridge to the real tfwsl-agent (natively, as
     tests/integration/doctor does);
  2. tfwsl explain --json on every sample of tests/corpus/explain (the text after its '---' line);
  3. tfwsl-agent check --json;
  4. tfwsl-agent dataset import --json of a small real tree (ok true), and of a missing source
     (ok false); tfwsl data push --json of the same tree (--dry-run, then pushed) and of a missing
     source (refused);
  5. the negative cases: a real doctor report without `schema`, or with an unknown top-level
     field, or a check with an unknown field, must fail validation.
  Every output's envelope must name the schema it validates against and carry tfwsl_version.
files DIR --expect NAME...: every DIR/NAME.json exists (one per Wine scenario) and every
  DIR/*.json validates against the schema its envelope names.

Exit 0: all valid; 1: a problem (printed); 77: the jsonschema module is missing (skipped).
"""
import argparse
import copy
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import schema_support as ss  # noqa: E402

failures = []


def check(schemas, key, document, what):
    found = ss.problems(schemas, key, document)
    if ss.schema_key_of(document) != key:
        found.insert(0, f"envelope names {document.get('schema') if isinstance(document, dict) else None}, expected tfwsl.{key}")
    if found:
        failures.append(what)
        print(f"FAILED: {what} does not validate against {key}.schema.json:")
        for line in found[:20]:
            print("   ", line)
    else:
        print(f"ok: {what} validates against {key}.schema.json")


def expect_invalid(schemas, key, document, what):
    if ss.problems(schemas, key, document):
        print(f"ok: {what} is rejected")
    else:
        failures.append(what)
        print(f"FAILED: {what} validates, but should not")


def run_json(argv, what, codes=(0, 1, 2), stdin=None):
    p = subprocess.run(argv, capture_output=True, timeout=540, input=stdin)
    try:
        document = json.loads(p.stdout.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        sys.exit(f"FAILED: {what} printed no JSON ({e}; exit {p.returncode}):\n{p.stdout[:2000]!r}\n{p.stderr[:2000]!r}")
    if p.returncode not in codes:
        sys.exit(f"FAILED: {what} exited {p.returncode}, expected one of {codes}:\n{p.stderr[:2000]!r}")
    return document


def corpus_body(path):
    with open(path, "rb") as f:
        data = f.read()
    for marker in (b"\n---\n", b"\r\n---\r\n"):
        if marker in data:
            return data.split(marker, 1)[1]
    return data[4:] if data.startswith(b"---\n") else data


def negative_cases(schemas, doctor):
    no_schema = copy.deepcopy(doctor)
    no_schema.pop("schema", None)
    expect_invalid(schemas, "doctor", no_schema, "a doctor report without `schema`")
    extra = copy.deepcopy(doctor)
    extra["surprise"] = 1
    expect_invalid(schemas, "doctor", extra, "a doctor report with an unknown top-level field")
    bad_check = copy.deepcopy(doctor)
    bad_check["checks"][0]["verdict"] = "ok"
    expect_invalid(schemas, "doctor", bad_check, "a doctor report whose check has an unknown field")
    no_version = copy.deepcopy(doctor)
    no_version.pop("tfwsl_version", None)
    expect_invalid(schemas, "doctor", no_version, "a doctor report without `tfwsl_version`")
    wrong_name = copy.deepcopy(doctor)
    wrong_name["schema"] = {"name": "tfwsl.check", "version": 1}
    expect_invalid(schemas, "doctor", wrong_name, "a doctor report named tfwsl.check")


def dataset_outputs(schemas, agent):
    with tempfile.TemporaryDirectory() as d:
        source = os.path.join(d, "source", "images")
        os.makedirs(os.path.join(source, "train"))
        for i in range(5):
            with open(os.path.join(source, "train", f"{i}.bin"), "wb") as f:
                f.write(os.urandom(1000 + 97 * i))
        target = os.path.join(d, "target")
        done = run_json([agent, "dataset", "import", "--source", source, "--target", target, "--json"],
                        "dataset import", codes=(0,))
        check(schemas, "dataset-import", done, "tfwsl-agent dataset import --json (5 files)")
        if done.get("totals", {}).get("files_done") != 5:
            failures.append("dataset totals")
            print("FAILED: the import's totals.files_done is not 5:", done.get("totals"))
        failed = run_json([agent, "dataset", "import", "--source", os.path.join(d, "absent"), "--target", target,
                           "--json"], "dataset import of a missing source", codes=range(1, 126))
        check(schemas, "dataset-import", failed, "tfwsl-agent dataset import --json of a missing source")
        if failed.get("ok") is not False:
            failures.append("dataset failure ok")
            print("FAILED: a failed import says ok:", failed.get("ok"))


def push_outputs(schemas, a):
    with tempfile.TemporaryDirectory() as d:
        source, to = os.path.join(d, "images"), os.path.join(d, "sets")
        os.makedirs(source)
        os.makedirs(to)
        for i in range(5):
            with open(os.path.join(source, f"{i}.bin"), "wb") as f:
                f.write(os.urandom(500 + 31 * i))
        push = [a.tfwsl, "data", "push", source, "--to", to, "--agent", a.agent, "--json"]
        planned = run_json(push + ["--dry-run"], "tfwsl data push --dry-run --json", codes=(0,))
        check(schemas, "data-push", planned, "tfwsl data push --dry-run --json")
        done = run_json(push, "tfwsl data push --json", codes=(0,))
        check(schemas, "data-push", done, "tfwsl data push --json (5 files)")
        if (done.get("job") or {}).get("progress", {}).get("files_done") != 5:
            failures.append("push totals")
            print("FAILED: the push's job.progress.files_done is not 5:", done.get("job"))
        broken = copy.deepcopy(done)
        del broken["outcome"]
        expect_invalid(schemas, "data-push", broken, "a push result without outcome")
        broken = copy.deepcopy(done)
        broken["job"]["state"] = "half-done"
        expect_invalid(schemas, "data-push", broken, "a push result whose job state is unknown")
        refused = run_json([a.tfwsl, "data", "push", os.path.join(d, "absent"), "--to", to, "--agent", a.agent, "--json"],
                           "tfwsl data push of a missing source", codes=(2,))
        check(schemas, "data-push", refused, "tfwsl data push --json of a missing source")
        if refused.get("ok") is not False or refused.get("outcome") != "refused":
            failures.append("push refusal")
            print("FAILED: a refused push says", refused.get("ok"), refused.get("outcome"))


def native(a, schemas):
    doctor = run_json([a.tfwsl, "doctor", "--json", "--agent", a.agent], "tfwsl doctor --json")
    check(schemas, "doctor", doctor, "tfwsl doctor --json (native)")
    with_values = [c["id"] for c in doctor["checks"] if "values" in c]
    if not with_values:
        failures.append("values")
        print("FAILED: no doctor check carries values")
    else:
        print("ok: checks with values:", ", ".join(with_values))
    negative_cases(schemas, doctor)
    names = sorted(n for n in os.listdir(a.corpus) if n.endswith(".txt"))
    for name in names:
        with tempfile.NamedTemporaryFile(suffix=".txt") as f:
            f.write(corpus_body(os.path.join(a.corpus, name)))
            f.flush()
            out = run_json([a.tfwsl, "explain", "--json", f.name], f"tfwsl explain --json {name}")
        check(schemas, "explain", out, f"tfwsl explain --json {name}")
    if len(names) < 10:
        failures.append("corpus")
        print(f"FAILED: only {len(names)} corpus samples in {a.corpus}")
    check(schemas, "check", run_json([a.agent, "check", "--json"], "tfwsl-agent check --json"),
          "tfwsl-agent check --json")
    dataset_outputs(schemas, a.agent)
    push_outputs(schemas, a)


def files(a, schemas):
    for name in a.expect:
        if not os.path.exists(os.path.join(a.dir, name + ".json")):
            failures.append(name)
            print(f"FAILED: no {name}.json in {a.dir} (did windows.doctor.{name} run?)")
    for name in sorted(n for n in os.listdir(a.dir) if n.endswith(".json")):
        with open(os.path.join(a.dir, name), encoding="utf-8") as f:
            document = json.load(f)
        key = ss.schema_key_of(document) or "doctor"
        check(schemas, key, document, os.path.join(a.dir, name))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--schemas", required=True)
    sub = ap.add_subparsers(dest="mode", required=True)
    n = sub.add_parser("native")
    n.add_argument("--tfwsl", required=True)
    n.add_argument("--agent", required=True)
    n.add_argument("--corpus", required=True)
    f = sub.add_parser("files")
    f.add_argument("dir")
    f.add_argument("--expect", nargs="*", default=[])
    a = ap.parse_args()
    ss.require_jsonschema()
    schemas = ss.load_schemas(a.schemas)
    (native if a.mode == "native" else files)(a, schemas)
    if failures:
        print(f"{len(failures)} problem(s)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
