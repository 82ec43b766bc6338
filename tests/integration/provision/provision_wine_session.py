#!/usr/bin/env python3
"""tfwsl.exe provision under Wine, in one stand-in world (tests/wsl_standin, tfwsl_wsl_session).

1. `provision --dry-run` prints the agent's own plan, fetched through the stand-in wsl.exe and the
   relay from the real tfwsl-agent in the fake distro: the same text that agent prints when run
   directly; `--dry-run --json` validates against docs/schema/provision.schema.json and lists the
   distro steps in order with the exact package names.
2. `provision --yes` against a stand-in whose wsl.exe fakes --install and --set-version
   (`install = fake`) and a world without Ubuntu-22.04: the distro is installed, set to WSL 2, the
   profile's .wslconfig values are written (other lines kept, gpuSupport=false removed), all of it
   in the stand-in's log; the distro half is asked for as root and, the agent observing a probe
   root, refuses to change the build machine (a failed row, exit 2).
3. A second `--yes` installs and converts nothing again.
4. After the consent of a `--yes` the plan is one line (with the command that shows it whole, which
   the dry run above is), not the whole plan again (issue 43, item 10).
"""
import argparse
import json
import os
import re
import subprocess
import sys

from wsl_session import WslSession

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "schema"))
import schema_support as ss  # noqa: E402

failures = []


def check(condition, what, detail=""):
    print(("ok: " if condition else "FAILED: ") + what + ("" if condition or not detail else f"\n    {detail}"))
    if not condition:
        failures.append(what)


def dry_run(s, schemas):
    r = s.run(["provision", "--dry-run"])
    check(r.returncode == 0 and "cuda-toolkit-12-2" in r.stdout and "wsl.exe --install -d Ubuntu-22.04 --no-launch" in r.stdout,
          "provision --dry-run prints the plan", f"exit {r.returncode}: {r.stderr[-800:]}")
    check(any("tfwsl-agent provision --dry-run" in line for line in s.relayed()), "... fetched from the agent in the distro",
          "\n".join(s.relayed()[-5:]))
    agent = s.distro / "usr/local/lib/tfwsl/tfwsl-agent"
    env = dict(os.environ, TFWSL_PROBE_ROOT=str(s.distro))
    direct = subprocess.run([str(agent), "provision", "--dry-run", "--profile", "tf-2.15-cuda-12.2", "--platform", "wsl"],
                            capture_output=True, text=True, env=env, timeout=60)
    check(direct.returncode == 0 and r.stdout.replace("\r\n", "\n") == direct.stdout,
          "... and it is the same plan the agent prints when run directly", f"wine:\n{r.stdout[:600]}\ndirect:\n{direct.stdout[:600]}")
    j = s.run(["provision", "--dry-run", "--json"])
    try:
        doc = json.loads(j.stdout)
    except json.JSONDecodeError:
        doc = None
    check(doc is not None and not ss.problems(schemas, "provision", doc), "provision --dry-run --json validates",
          "\n".join(ss.problems(schemas, "provision", doc)[:10]) if doc else j.stdout[:500])
    if doc:
        steps = [(x["id"], x["packages"]) for x in doc["plan"]["distro_steps"]]
        check(steps[4] == ("cuda.toolkit", ["cuda-toolkit-12-2"]) and steps[3] == ("cuda.repository", ["cuda-keyring"]),
              "... with the distro steps in order and the exact package names", json.dumps(steps))


def world_without_the_distro(s):
    scenario = s.work / "scenario"
    with open(scenario / "scenario.txt", "a") as f:
        f.write("install = fake\n")
    listing = (scenario / "list.bin").read_bytes().decode("utf-16-le")
    kept = "".join(line for line in listing.splitlines(keepends=True) if "Ubuntu-22.04" not in line)
    (scenario / "list.bin").write_bytes(kept.encode("utf-16-le"))
    (scenario / "default-user.txt").write_text("tfuser\n")  # WSL's default user, for the distro.user step


def apply_host_steps(s):
    wslconfig = s.work / "provision.wslconfig"
    wslconfig.write_bytes(b"# mine\r\n[wsl2]\r\nmemory=4GB\r\ngpuSupport=false\r\n")
    profile = s.work / "team.yaml"
    profile.write_text("name: team\nextends: builtin:tf-2.15-cuda-12.2\nwsl: { memory: 16GB }\n")
    env = {"TFWSL_WSLCONFIG": s.windows_path(wslconfig)}
    argv = ["provision", "--yes", "--profile", s.windows_path(profile)]
    r = s.run(argv, env=env)
    log = s.standin_log()
    check("wsl.exe --install -d Ubuntu-22.04 --no-launch" in log, "--yes installs the distro (in the stand-in's log)", log[-1500:])
    check("wsl.exe --set-version Ubuntu-22.04 2" in log, "--yes sets it to WSL 2 (in the stand-in's log)")
    check((s.work / "scenario/installed.txt").read_text().split() == ["Ubuntu-22.04", "2"], "... and the stand-in lists it as WSL 2")
    check(wslconfig.read_bytes() == b"# mine\r\n[wsl2]\r\nmemory=16GB\r\n",
          ".wslconfig gets the profile's memory, loses gpuSupport=false, keeps the rest", repr(wslconfig.read_bytes()))
    check("-d Ubuntu-22.04 -u root --exec" in log and "provision --profile - " in log and "--user tfuser" in log
          and "/mnt/z/" not in log.split("provision --profile", 1)[-1].split("\n", 1)[0],
          "the distro half is asked of the agent as root, for the default user, with the profile tfwsl loaded "
          "sent on its stdin (no path of the user's for the agent to read)",
          log[-800:])
    check(r.returncode == 2 and "TFWSL_PROBE_ROOT is set" in r.stdout, "... which refuses to change the build machine (exit 2)",
          f"exit {r.returncode}\n{r.stdout[-1500:]}\n{r.stderr[-800:]}")
    # Lines as printed before the terminal's width: a command's continuation (PowerShell's backtick)
    # and the hanging indent of a wrapped line joined back.
    lines = re.sub(r"\n +(?=\S)", " ", re.sub(r" `\n +", " ", r.stdout)).splitlines()
    check(not any(l.startswith(("Plan for profile", "Distro steps", "Host steps")) for l in lines)
          and lines[:1] and lines[0].startswith("Provisioning profile team (distro Ubuntu-22.04")
          and any(l.startswith("The plan step by step: (PowerShell) tfwsl provision --dry-run --profile ")
                  and l.endswith("team.yaml") for l in lines),
          "after --yes: the plan in one line with the command that shows it whole, not the plan again", r.stdout[:1500])
    for step in ("distro.installed", "distro.wsl2", "wslconfig.values", "wslconfig.gpu"):
        check(any(line.startswith("changed") and step in line for line in r.stdout.splitlines()), f"the recap: {step} changed")
    before = log.count("--install") + log.count("--set-version")
    again = s.run(argv, env=env)
    log = s.standin_log()
    check(log.count("--install") + log.count("--set-version") == before and not any(l.startswith("changed") for l in again.stdout.splitlines()),
          "a second --yes installs and converts nothing", again.stdout[-1200:])


def main():
    parser = argparse.ArgumentParser()
    WslSession.add_arguments(parser)
    parser.add_argument("--scenarios", required=True)
    parser.add_argument("--schemas", required=True)
    args = parser.parse_args()
    ss.require_jsonschema()
    schemas = ss.load_schemas(args.schemas)
    with WslSession.from_args(args, f"{args.scenarios}/healthy") as s:
        dry_run(s, schemas)
        world_without_the_distro(s)
        apply_host_steps(s)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
