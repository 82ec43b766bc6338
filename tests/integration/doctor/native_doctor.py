#!/usr/bin/env python3
"""tfwsl doctor on the native Linux build, over the real bridge to the real tfwsl-agent.

1. --agent PATH: wsl.agent is ok over http on 127.0.0.1, forwarding is skipped (nothing forwarded),
   the agent's own checks are reported (not "unknown"), and every id appears once.
2. No --agent, tfwsl in the build tree: the agent is found at ../linux/tfwsl-agent.
3. tfwsl copied alone into an empty folder: wsl.agent fails naming where it looked and the fix,
   and the agent's checks are unknown; exit status 2.
5. The text report folds: the six host skips (and the other Windows-side skips) are one line, not
   one each, the JSON marks them blocked_by platform.windows, and without an agent its checks fold
   under wsl.agent: one issue, the one to fix first.
6. -v ends with where the logs are (agent.log and agent.err, pip's, the provision step logs,
   --log-file); the plain report does not list them.
4. --profile FILE (a profile only the CLI side has): the distro's verdicts follow it, since the CLI
   judges the agent's /v1/facts with its own policy (cuda.toolkit names the file's toolkit, not the
   default profile's).
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

AGENT_CHECK = "linux.libcuda"  # one of the agent's /v1/checks ids


def doctor(tfwsl, *extra, env=None):
    run_env = dict(os.environ)
    run_env.pop("TFWSL_AGENT", None)
    run_env.update(env or {})
    p = subprocess.run([tfwsl, "doctor", "--json", *extra], capture_output=True, text=True, timeout=540, env=run_env)
    try:
        report = json.loads(p.stdout)
    except json.JSONDecodeError:
        sys.exit(f"doctor printed no JSON (exit {p.returncode}):\n{p.stdout}\n{p.stderr}")
    return p.returncode, {c["id"]: c for c in report["checks"]}, report


def expect(condition, what, report=None):
    if not condition:
        print("FAILED:", what)
        if report is not None:
            print(json.dumps(report, indent=2)[:4000])
        sys.exit(1)
    print("ok:", what)


# A profile that exists only as a file on the CLI side, with a CUDA toolkit the default lacks.
TEAM_PROFILE = """name: team-file
distro: Ubuntu-22.04
cuda: { toolkit: "12.3", cudnn: "8.9" }
python: { version: "3.10", venv: ~/.venvs/team }
tensorflow: { version: "2.16.*", extras: [and-cuda] }
"""


def profile_file_judges_the_distro(a):
    _, checks, report = doctor(a.tfwsl, "--agent", a.agent)
    default_toolkit = checks["cuda.toolkit"]["summary"]
    expect("12.2" in default_toolkit and "12.3" not in default_toolkit,
           "with the default profile, cuda.toolkit is judged against 12.2", report)
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "team.yaml")
        with open(path, "w") as f:
            f.write(TEAM_PROFILE)
        _, checks, report = doctor(a.tfwsl, "--agent", a.agent, "--profile", path)
        toolkit = checks["cuda.toolkit"]["summary"]
        expect("12.3" in toolkit and "wants 12.2" not in toolkit,
               "--profile FILE: cuda.toolkit is judged against the file's 12.3", report)
        expect("unknown" not in toolkit, "and still from the agent's facts", report)


def doctor_text(tfwsl, *extra):
    run_env = dict(os.environ)
    run_env.pop("TFWSL_AGENT", None)
    p = subprocess.run([tfwsl, "doctor", *extra], capture_output=True, text=True, timeout=540,
                       env=run_env)
    return p.stdout


def host_skips_fold(a, checks, report):
    for host in ("host.windows-build", "host.virtualization", "host.nvidia-driver", "host.gpu-driver-model",
                 "host.tdr", "host.fast-startup"):
        expect(checks[host].get("blocked_by") == "platform.windows", f"{host} is folded under platform.windows", report)
    text = doctor_text(a.tfwsl, "--agent", a.agent)
    lines = [l for l in text.splitlines() if "not Windows" in l]
    # Six host checks, four wsl.exe ones, driver parity; linux.dxg and linux.ldconfig too where
    # this machine is not WSL.
    expect(len(lines) == 1 and re.match(r"1[13] checks not run: not Windows: the host and WSL checks do not apply", lines[0]),
           "the host and WSL skips are one line of text:\n" + text)
    expect("host.tdr" not in text, "and no host line of their own")
    expect("host.tdr" in doctor_text(a.tfwsl, "--agent", a.agent, "-v"), "-v lists them")


def verbose_ends_with_log_locations(a):
    """-v ends with where the logs are (docs/doctor.md, "Logs"); the plain report does not list them."""
    text = doctor_text(a.tfwsl, "--agent", a.agent, "-v")
    lines = text.rstrip("\n").splitlines()
    start = max((i for i, l in enumerate(lines) if l.startswith("Logs")), default=-1)
    expect(start >= 0, "-v has a Logs section:\n" + text[-2000:])
    tail = lines[start + 1:]
    for place in ("~/.config/tfwsl/agent.log", "~/.config/tfwsl/agent.err", "~/.cache/tfwsl/pip-*.log",
                  "/var/lib/tfwsl/provision/logs", "--log-file FILE"):
        expect(any(l.strip().startswith(place + ":") for l in tail), f"-v's Logs section names {place}:\n" + "\n".join(tail))
    expect(len(tail) == 5 and all(l.startswith("  ") for l in tail), "and the report ends there:\n" + "\n".join(lines[start:]))
    expect("agent.log" not in doctor_text(a.tfwsl, "--agent", a.agent), "without -v no log list")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tfwsl", required=True)
    ap.add_argument("--agent", required=True)
    a = ap.parse_args()

    _, checks, report = doctor(a.tfwsl, "--agent", a.agent)
    agent = checks["wsl.agent"]
    expect(agent["status"] == "ok" and "over http (127.0.0.1:" in agent["summary"], "--agent: the agent answered over http", report)
    expect(checks["wsl.localhost-forwarding"]["status"] == "skip", "nothing is forwarded natively", report)
    expect("unknown" not in checks[AGENT_CHECK]["summary"], f"{AGENT_CHECK} came from the agent", report)
    expect(len(checks) == len(report["checks"]), "every id once", report)
    host_skips_fold(a, checks, report)
    verbose_ends_with_log_locations(a)

    if os.path.basename(os.path.dirname(a.tfwsl)) == "win" and os.path.exists(
            os.path.join(os.path.dirname(a.tfwsl), "..", "linux", "tfwsl-agent")):
        _, checks, report = doctor(a.tfwsl)
        expect(checks["wsl.agent"]["status"] == "ok", "the build tree's ../linux/tfwsl-agent is found", report)

    profile_file_judges_the_distro(a)

    with tempfile.TemporaryDirectory() as d:
        lone = os.path.join(d, "bin", "tfwsl")
        os.makedirs(os.path.dirname(lone))
        shutil.copy2(a.tfwsl, lone)
        code, checks, report = doctor(lone)
        agent = checks["wsl.agent"]
        expect(code == 2, "a missing agent is a failure (exit 2)", report)
        expect(agent["status"] == "fail" and "tfwsl-agent was not found" in agent["summary"], "wsl.agent names the problem", report)
        expect(os.path.join(d, "bin", "tfwsl-agent") in agent["summary"] and "--agent PATH" in agent["summary"],
               "and where it looked, and the fix", report)
        expect(checks[AGENT_CHECK]["status"] == "skip", "the agent's checks stay unknown", report)
        expect(checks[AGENT_CHECK].get("blocked_by") == "wsl.agent", "and fold under wsl.agent", report)
        expect(report["summary"]["issues"] == 1 and report["summary"]["fix_first"]["id"] == "wsl.agent",
               "one issue, wsl.agent, to fix first", report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
