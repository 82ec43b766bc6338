#!/usr/bin/env python3
"""tfwsl.exe as a fleet engine meets it, under Wine in one stand-in world (tests/wsl_standin):

1. the Intune outputs of the healthy machine: `doctor --summary-line` (one line, at most 2,048
   bytes) and `doctor --compliance`, judged by docs/fleet/intune/compliance-rules.json: GPU, driver
   and WSL 2 compliant, the memory rule not (the scenario's .wslconfig sets none);
2. Tfwsl/WslConfig, the user's .wslconfig (the world's): test out of the desired state, set, test
   in the desired state, a second set that changes no byte; then the memory rule is compliant;
3. Tfwsl/Profile in a world whose Ubuntu-22.04 is not installed (the stand-in fakes --install) and
   whose fake distro is provisioned (provisioned_distro.py): test out of the desired state
   (distro.installed would change), set installs it, test in the desired state, a second set
   installs nothing and never asks the agent to apply;
every get/test/set output valid against DSC v3's stdout schemas and the resource's instance schema.
"""
import argparse
import json
import os
import sys

from wsl_session import WslSession

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "provision"))
import fleet_support as fs  # noqa: E402
from provisioned_distro import make_provisioned  # noqa: E402

failures = []


def check(condition, what, detail=""):
    print(("ok: " if condition else "FAILED: ") + what + ("" if condition or not detail else f"\n    {str(detail)[-3000:]}"))
    if not condition:
        failures.append(what)


def dsc(s, operation, kind, desired):
    r = s.run(["dsc", operation, "--resource", kind], input=json.dumps(desired), timeout=600)
    lines = [l for l in r.stdout.splitlines() if l.strip()]
    return r, lines, (json.loads(lines[0]) if r.returncode == 0 and lines else {})


def schema_of(s, kind):
    r = s.run(["dsc", "schema", "--resource", kind])
    return json.loads(r.stdout)


def intune(s, rules, memory_compliant):
    r = s.run(["doctor", "--summary-line"])
    line = r.stdout.replace("\r\n", "\n")
    check(line.count("\n") == 1 and len(line.encode()) <= 2049 and line.startswith("tfwsl doctor: "),
          "doctor --summary-line: one line of at most 2,048 bytes", repr(line[:400]))
    c = s.run(["doctor", "--compliance"])
    facts = json.loads(c.stdout) if c.stdout.strip() else {}
    check(not fs.compliance_problems(rules, facts), "doctor --compliance holds every setting of the rules file, typed",
          fs.compliance_problems(rules, facts))
    verdicts = fs.evaluate(rules, facts)
    expected = {"tfwsl_installed": True, "tf_gpu_visible": True, "nvidia_driver_meets_profile": True, "wsl_default_version_2": True,
                "wslconfig_memory_set": memory_compliant}
    check(verdicts == expected, f"... and the rules judge it {expected}", f"{verdicts}\n{facts}")


def wslconfig(s, rules):
    schema = schema_of(s, "Tfwsl/WslConfig")
    path = s.work / "scenario" / "wslconfig.txt"
    desired = {"memory": "16GB", "processors": 8}
    before = path.read_bytes()
    r, lines, state = dsc(s, "test", "Tfwsl/WslConfig", desired)
    check(r.returncode == 0 and state.get("_inDesiredState") is False and json.loads(lines[1]) == ["memory"],
          "WslConfig test: memory differs (processors=8 is already there)", r.stdout + r.stderr)
    check(not fs.output_problems("test", lines, schema) and path.read_bytes() == before, "... valid, and nothing written",
          fs.output_problems("test", lines, schema))
    r, lines, state = dsc(s, "set", "Tfwsl/WslConfig", desired)
    check(r.returncode == 0 and state.get("memory") == "16GB" and b"memory=16GB" in path.read_bytes(),
          "WslConfig set writes the user's .wslconfig", r.stdout + r.stderr)
    check(not fs.output_problems("set", lines, schema), "... valid", fs.output_problems("set", lines, schema))
    r, lines, state = dsc(s, "get", "Tfwsl/WslConfig", {})
    check(r.returncode == 0 and state.get("memory") == "16GB" and state.get("processors") == 8 and state.get("file"),
          "WslConfig get: the state with the file's path", r.stdout)
    check(not fs.output_problems("get", lines, schema), "... valid", fs.output_problems("get", lines, schema))
    r, lines, state = dsc(s, "test", "Tfwsl/WslConfig", desired)
    check(r.returncode == 0 and state.get("_inDesiredState") is True, "WslConfig test after set: in the desired state", r.stdout)
    written, mtime = path.read_bytes(), path.stat().st_mtime_ns
    r, lines, state = dsc(s, "set", "Tfwsl/WslConfig", desired)
    check(r.returncode == 0 and path.read_bytes() == written and path.stat().st_mtime_ns == mtime,
          "a second WslConfig set changes nothing", r.stderr)
    intune(s, rules, memory_compliant=True)


def world_without_the_distro(s):
    scenario = s.work / "scenario"
    with open(scenario / "scenario.txt", "a") as f:
        f.write("install = fake\n")
    listing = (scenario / "list.bin").read_bytes().decode("utf-16-le")
    kept = "".join(line for line in listing.splitlines(keepends=True) if "Ubuntu-22.04" not in line)
    (scenario / "list.bin").write_bytes(kept.encode("utf-16-le"))
    (scenario / "default-user.txt").write_text("tfuser\n")


def profile(s):
    schema = schema_of(s, "Tfwsl/Profile")
    world_without_the_distro(s)
    make_provisioned(str(s.distro), str(s.distro / "usr/local/lib/tfwsl/tfwsl-agent"))
    desired = {"profile": "tf-2.15-cuda-12.2"}
    r, lines, state = dsc(s, "test", "Tfwsl/Profile", desired)
    results = {x["id"]: x["result"] for x in state.get("steps", [])}
    check(r.returncode == 0 and state.get("_inDesiredState") is False and results.get("distro.installed") == "changed",
          "Profile test: out of the desired state, distro.installed would change", r.stdout + r.stderr)
    check(not fs.output_problems("test", lines, schema), "... valid", fs.output_problems("test", lines, schema))
    check("--install" not in s.standin_log(), "... and test installed nothing")
    r, lines, state = dsc(s, "set", "Tfwsl/Profile", desired)
    check(r.returncode == 0 and "wsl.exe --install -d Ubuntu-22.04 --no-launch" in s.standin_log(),
          "Profile set installs the distro", r.stdout[-1500:] + r.stderr[-1500:])
    check(not fs.output_problems("set", lines, schema) and all(x["result"] == "ok" for x in state.get("steps", [])),
          "... and the state afterwards has every step ok", fs.output_problems("set", lines, schema) or state)
    r, lines, state = dsc(s, "test", "Tfwsl/Profile", desired)
    not_ok = [f'{x["id"]}: {x["result"]}: {x.get("message", "")}' for x in state.get("steps", []) if x["result"] != "ok"]
    check(r.returncode == 0 and state.get("_inDesiredState") is True, "Profile test after set: in the desired state",
          "\n    ".join(not_ok[:6]) or r.stdout[-800:])
    installs = s.standin_log().count("--install")
    applies = [l for l in s.relayed() if " provision " in f" {l} " and "--check" not in l and "--dry-run" not in l]
    r, lines, state = dsc(s, "set", "Tfwsl/Profile", desired)
    applies_after = [l for l in s.relayed() if " provision " in f" {l} " and "--check" not in l and "--dry-run" not in l]
    check(r.returncode == 0 and s.standin_log().count("--install") == installs and applies_after == applies,
          "a second Profile set installs nothing and asks the agent for no apply", "\n".join(applies_after[-3:]))
    r, lines, state = dsc(s, "get", "Tfwsl/Profile", desired)
    check(r.returncode == 0 and not fs.output_problems("get", lines, schema), "Profile get: valid",
          fs.output_problems("get", lines, schema))


def main():
    parser = argparse.ArgumentParser()
    WslSession.add_arguments(parser)
    parser.add_argument("--scenarios", required=True)
    parser.add_argument("--rules", required=True)
    args = parser.parse_args()
    if fs.jsonschema is None:
        print("skipped: the Python module jsonschema is missing (Debian: apt-get install python3-jsonschema)")
        return fs.SKIPPED
    with open(args.rules, encoding="utf-8") as f:
        rules = json.load(f)
    with WslSession.from_args(args, f"{args.scenarios}/healthy") as s:
        first = s.run(["--version"])  # builds the world
        check(first.returncode == 0, "the world is built", first.stderr[-400:])
        intune(s, rules, memory_compliant=False)
        wslconfig(s, rules)
        profile(s)
    for f in failures:
        print("FAILED:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
