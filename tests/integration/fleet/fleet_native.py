#!/usr/bin/env python3
"""tfwsl for fleet engines, natively (docs/fleet.md):

1. `tfwsl dsc manifest` of both resource types validates against DSC v3's manifest schema
   (dsc-schemas/, PowerShell/DSC v3.1.0) and embeds the instance schema `tfwsl dsc schema` prints,
   which compiles with nothing fetched (fleet_support.validator_for refuses any fetch, as DSC's
   library does) and nothing preloaded;
2. Tfwsl/WslConfig round trip on a real .wslconfig: get; test out of the desired state (nothing
   written); set (backup, comment and CRLF kept); test in the desired state; a second set that
   changes no byte, no mtime and makes no backup; every output valid against DSC's stdout schemas
   and the instance schema;
3. bad desired states: exit 2 and one JSON line {"error": ...} on stderr naming the input;
4. `doctor --summary-line`: one line of at most 2,048 bytes; `doctor --compliance`: the flat facts
   that docs/fleet/intune/compliance-rules.json tests, each of the type the rule says;
5. docs/fleet/configuration.dsc.yaml validates against DSC's configuration document schema, and
   its tfwsl resources' properties against the instance schemas;
6. every tfwsl command line in docs/fleet (the Intune scripts, the Ansible playbooks) names
   commands and options that tfwsl's --help lists.
"""
import argparse
import glob
import json
import os
import subprocess
import sys
import tempfile

import fleet_support as fs

failures = []
DSC_IN_DESIRED_STATE = "https://aka.ms/dsc/schemas/v3/resource/properties/inDesiredState.json"


def check(condition, what, detail=""):
    print(("ok: " if condition else "FAILED: ") + what + ("" if condition or not detail else f"\n    {str(detail)[:3000]}"))
    if not condition:
        failures.append(what)


def run(tfwsl, args, stdin=None):
    return subprocess.run([tfwsl] + args, input=stdin, capture_output=True, text=True, timeout=300)


def manifests(tfwsl):
    schemas = {}
    for kind in ("Tfwsl/WslConfig", "Tfwsl/Profile"):
        m = run(tfwsl, ["dsc", "manifest", "--resource", kind])
        manifest = json.loads(m.stdout) if m.returncode == 0 else {}
        check(m.returncode == 0 and not fs.problems(fs.dsc_schema("resource.manifest"), manifest),
              f"the {kind} manifest validates against DSC's manifest schema", fs.problems(fs.dsc_schema("resource.manifest"), manifest))
        s = run(tfwsl, ["dsc", "schema", "--resource", kind])
        schema = json.loads(s.stdout) if s.returncode == 0 else {}
        fs.jsonschema.Draft202012Validator.check_schema(schema)
        check(manifest.get("schema", {}).get("embedded") == schema, f"... and embeds the instance schema `dsc schema` prints")
        check(schema.get("properties", {}).get("_inDesiredState") == {"$ref": DSC_IN_DESIRED_STATE},
              "... whose _inDesiredState is the $ref DSC's manifest schema requires", schema.get("properties", {}).get("_inDesiredState"))
        unresolved = fs.compiles_offline(schema)
        check(unresolved is None, "... and compiles with nothing fetched, as DSC compiles it (the definition bundled)", unresolved)
        schemas[kind] = schema
    return schemas


def dsc(tfwsl, operation, desired):
    r = run(tfwsl, ["dsc", operation, "--resource", "Tfwsl/WslConfig"], stdin=json.dumps(desired))
    lines = r.stdout.splitlines()
    return r, lines, (json.loads(lines[0]) if r.returncode == 0 and lines else {})


def stat_of(path):
    st = os.stat(path)
    return (open(path, "rb").read(), st.st_mtime_ns, st.st_mode)


def wslconfig_round_trip(tfwsl, schema):
    work = tempfile.mkdtemp(prefix="tfwsl-fleet-")
    path = os.path.join(work, ".wslconfig")
    with open(path, "wb") as f:
        f.write(b"# the team's file\r\n[wsl2]\r\nmemory=4GB\r\n")
    desired = {"file": path, "memory": "16GB", "processors": 8}

    r, lines, state = dsc(tfwsl, "get", {"file": path})
    check(r.returncode == 0 and state == {"file": path, "memory": "4GB"}, "get: the file's values", r.stdout + r.stderr)
    check(not fs.output_problems("get", lines, schema), "... valid", fs.output_problems("get", lines, schema))

    before = stat_of(path)
    r, lines, state = dsc(tfwsl, "test", desired)
    check(r.returncode == 0 and state.get("_inDesiredState") is False and json.loads(lines[1]) == ["memory", "processors"],
          "test: out of the desired state, memory and processors differ", r.stdout + r.stderr)
    check(not fs.output_problems("test", lines, schema), "... valid", fs.output_problems("test", lines, schema))
    check(stat_of(path) == before, "... and test wrote nothing")

    r, lines, state = dsc(tfwsl, "set", desired)
    check(r.returncode == 0 and state.get("memory") == "16GB" and state.get("processors") == 8,
          "set: the state afterwards holds the desired values", r.stdout + r.stderr)
    check(not fs.output_problems("set", lines, schema), "... valid", fs.output_problems("set", lines, schema))
    written = open(path, "rb").read()
    check(written.startswith(b"# the team's file\r\n[wsl2]\r\n") and b"memory=16GB\r\n" in written and b"processors=8\r\n" in written,
          "... written by tfwsl's editor: the comment and the CRLF line ends kept", repr(written))
    backups = sorted(glob.glob(path + ".tfwsl-backup-*"))
    check(len(backups) == 1 and open(backups[0], "rb").read() == before[0], "... with a backup of the old bytes", backups)

    r, lines, state = dsc(tfwsl, "test", desired)
    check(r.returncode == 0 and state.get("_inDesiredState") is True and json.loads(lines[1]) == [],
          "test after set: in the desired state", r.stdout + r.stderr)
    after = stat_of(path)
    r, lines, state = dsc(tfwsl, "set", desired)
    check(r.returncode == 0 and stat_of(path) == after and sorted(glob.glob(path + ".tfwsl-backup-*")) == backups,
          "a second set changes no byte, no mtime, and makes no backup", r.stderr)


def bad_inputs(tfwsl):
    for args, stdin, needle in ((["dsc", "test", "--resource", "Tfwsl/WslConfig"], '{"memmory": "16GB"}', "'memmory'"),
                                (["dsc", "set", "--resource", "Tfwsl/WslConfig"], "memory=16GB", "is not JSON"),
                                (["dsc", "set", "--resource", "Tfwsl/WslConfig"], '{"processors": "eight"}', "'processors'"),
                                (["dsc", "get", "--resource", "Tfwsl/Nope"], "{}", "unknown resource type 'Tfwsl/Nope'"),
                                (["dsc", "get", "--resource", "Tfwsl/Profile"], "{}", "needs 'profile'")):
        r = run(tfwsl, args, stdin=stdin)
        try:
            message = json.loads(r.stderr.strip().splitlines()[-1])
        except (json.JSONDecodeError, IndexError):
            message = {}
        # {"error": ...}: the line DSC logs at error level (log_stderr_line, PowerShell/DSC
        # lib/dsc-lib/src/dscresources/command_resource.rs at 861df432).
        check(r.returncode == 2 and r.stdout == "" and list(message) == ["error"] and needle in message["error"],
              f"{' '.join(args[:2])} {stdin!r}: exit 2, a DSC error line naming {needle}", r.stderr)


def doctor_outputs(tfwsl, agent, rules):
    r = run(tfwsl, ["doctor", "--summary-line", "--agent", agent])
    line = r.stdout
    check(r.returncode in (0, 1, 2) and line.endswith("\n") and line.count("\n") == 1 and len(line.encode()) <= 2049
          and line.startswith("tfwsl doctor: "), "doctor --summary-line: one line of at most 2,048 bytes", repr(line[:300]))
    j = run(tfwsl, ["doctor", "--json", "--agent", agent])
    doctor = json.loads(j.stdout)
    check(r.returncode == j.returncode == doctor["summary"]["exit_code"], "... with the doctor's exit code")
    c = run(tfwsl, ["doctor", "--compliance", "--agent", agent])
    facts = json.loads(c.stdout) if c.stdout.strip() else {}
    check(c.stdout.count("\n") == 1 and all(not isinstance(v, (dict, list)) for v in facts.values()),
          "doctor --compliance: one flat JSON object on one line", c.stdout[:300])
    check(not fs.compliance_problems(rules, facts), "... holding every setting the rules file tests, typed as it says",
          fs.compliance_problems(rules, facts))
    verdicts = fs.evaluate(rules, facts)
    check(verdicts["tf_gpu_visible"] == (facts["tf_gpu_visible"] is True) and facts["doctor_exit_code"] == doctor["summary"]["exit_code"],
          "... and the rules decide from it", verdicts)


def configuration_document(tfwsl, schemas, docs):
    import yaml
    doc = yaml.safe_load(open(os.path.join(docs, "fleet", "configuration.dsc.yaml"), encoding="utf-8"))
    check(not fs.problems(fs.dsc_schema("config.document"), doc), "configuration.dsc.yaml validates against DSC's document schema",
          fs.problems(fs.dsc_schema("config.document"), doc))
    ours = [r for r in doc["resources"] if r["type"].startswith("Tfwsl/")]
    check(len(ours) == 2, "... with both tfwsl resources")
    for resource in ours:
        check(not fs.problems(schemas[resource["type"]], resource["properties"]),
              f"... {resource['name']}: its properties fit {resource['type']}'s schema", fs.problems(schemas[resource["type"]], resource["properties"]))


def help_of(tfwsl, path):
    r = run(tfwsl, path + ["--help"])
    return r.stdout if r.returncode == 0 else ""


def help_section(text, title):
    lines = text.splitlines()
    if title not in lines:
        return []
    out = []
    for line in lines[lines.index(title) + 1:]:
        if not line.strip():
            break
        out.append(line)
    return out


def fleet_command_lines(tfwsl, docs):
    """Each tfwsl command line of docs/fleet: its words walk `Subcommands:` from the top, and every
    option it passes is listed under that command's `Options:`."""
    files = sorted(glob.glob(os.path.join(docs, "fleet", "**", "*.ps1"), recursive=True) +
                   glob.glob(os.path.join(docs, "fleet", "ansible", "*.yml")))
    seen = 0
    for path in files:
        for argv in fs.tfwsl_command_lines(path):
            seen += 1
            command = []
            for word in argv:
                subs = [l.split()[0] for l in help_section(help_of(tfwsl, command), "Subcommands:") if l.split()]
                if word in subs:
                    command.append(word)
                elif not word.startswith("-"):
                    break
            text = help_of(tfwsl, command)
            listed = {n for l in help_section(text, "Options:") if l.startswith("  -") for n in l.split()[0].split(",")}
            options = {a.split("=")[0] for a in argv if a.startswith("-")}
            missing = sorted(o for o in options if o not in listed)
            # A line with no command (`tfwsl --version`, the playbooks' probe) checks tfwsl's own options.
            check((command or options) and not missing, f"{os.path.relpath(path, docs)}: tfwsl {' '.join(command)} {' '.join(sorted(options))}",
                  f"not listed: {missing}")
    check(seen >= 10, f"the fleet files run {seen} tfwsl command lines, each checked")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tfwsl", required=True)
    parser.add_argument("--agent", required=True)
    parser.add_argument("--docs", required=True)
    args = parser.parse_args()
    if fs.jsonschema is None:
        print("skipped: the Python module jsonschema is missing (Debian: apt-get install python3-jsonschema)")
        return fs.SKIPPED
    with open(os.path.join(args.docs, "fleet", "intune", "compliance-rules.json"), encoding="utf-8") as f:
        rules = json.load(f)
    schemas = manifests(args.tfwsl)
    wslconfig_round_trip(args.tfwsl, schemas["Tfwsl/WslConfig"])
    bad_inputs(args.tfwsl)
    doctor_outputs(args.tfwsl, args.agent, rules)
    configuration_document(args.tfwsl, schemas, args.docs)
    fleet_command_lines(args.tfwsl, args.docs)
    for f in failures:
        print("FAILED:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
