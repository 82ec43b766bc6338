#!/usr/bin/env python3
"""The release archive as a Windows user installs it, under Wine, in the stand-in world:

  installed_wine.py --session-tool T --session-config C --scenarios S --dist DIST --case CASE
    installed      unzipped into ...\\Users\\José\\AppData\\Local\\Programs\\tfwsl 0.2.0\\ (a space and a
                   non-ASCII letter, as a winget portable root under a user called José), that folder
                   on PATH (WINEPATH) and no build tree on any search path: `tfwsl --version` names the
                   commit, `tfwsl doctor` finds tfwsl-agent beside tfwsl.exe, runs it in the fake distro
                   from the install folder, and it answers (wsl.agent ok, the agent's commit in --json)
    agent-missing  the same with tfwsl-agent deleted from the folder: wsl.agent fails and its fix says
                   to reinstall tfwsl (the archive holds both), never to run cmake
The distro has no agent installed of its own (the healthy scenario without `agent = current`), so
the only tfwsl-agent there is to run is the installed one.
"""
import argparse
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile

from wsl_session import WslSession


def windows_path(p):
    return "Z:" + str(pathlib.Path(p).absolute()).replace("/", "\\")


def install(dist, root):
    archives = sorted(pathlib.Path(dist).glob("tfwsl-*-windows-x64.zip"))
    if len(archives) != 1:
        raise SystemExit(f"FAILED: {dist} holds {len(archives)} release archives (the release-dist fixture)")
    version = archives[0].name.split("-")[1]
    folder = root / "Users" / "José" / "AppData" / "Local" / "Programs" / f"tfwsl {version}"
    folder.mkdir(parents=True)
    subprocess.run(["unzip", "-q", str(archives[0]), "-d", str(folder)], check=True)
    return folder


def scenario_without_agent(scenarios, root):
    copy = root / "scenario-no-agent"
    shutil.copytree(pathlib.Path(scenarios) / "healthy", copy)
    relay = copy / "relay.txt"
    relay.write_text("".join(l for l in relay.read_text().splitlines(True) if not l.startswith("agent =")))
    return copy


def checks_by_id(report):
    return {c["id"]: c for c in report.get("checks", [])}


def run_installed(s, folder, args_list, failures):
    r = s.run(args_list, env=installed_env(folder))
    print(f"$ tfwsl {' '.join(args_list)}  (exit {r.returncode})\n{r.stdout[-3000:]}{r.stderr[-2000:]}")
    return r


def installed_env(folder):
    return {"WINEPATH": windows_path(folder)}


def case_installed(s, folder, failures):
    agent_stamp = subprocess.run([str(folder / "tfwsl-agent"), "--version"], capture_output=True, text=True).stdout.strip()
    print(f"$ tfwsl-agent --version (the archive's, natively)\n{agent_stamp}")
    version = run_installed(s, folder, ["--version"], failures)
    want = agent_stamp.replace("tfwsl-agent ", "tfwsl ", 1)
    said = version.stdout.splitlines() or [""]
    if version.returncode != 0 or said[0] != want or "(unknown" in want:
        failures.append(f"tfwsl --version said {said[0]!r}, expected {want!r}")
    # The archive unpacked into a folder of the user's own: the zip, upgraded from the releases page.
    if len(said) != 3 or not said[1].startswith("Installed by hand from the release zip (") or "/releases/latest" not in said[2]:
        failures.append(f"tfwsl --version did not say it was unpacked by hand and how to upgrade: {said!r}")
    report_run = run_installed(s, folder, ["doctor", "--json"], failures)
    report = json.loads(report_run.stdout or "{}")
    agent = checks_by_id(report).get("wsl.agent", {})
    if agent.get("status") != "ok":
        failures.append(f"wsl.agent is {agent.get('status')}: {agent.get('summary')}")
    build = report.get("build", {})
    commit = want.rsplit("(", 1)[-1].rstrip(")")
    if (build.get("tfwsl") or {}).get("commit") != commit or (build.get("agent") or {}).get("commit") != commit:
        failures.append(f"doctor --json's build {build} does not name commit {commit} for both")
    ran = [line for line in s.relayed() if "tfwsl-agent" in line]
    if not any("José" in line and f"{folder.name}/tfwsl-agent" in line for line in ran):
        failures.append(f"no relayed command ran the installed tfwsl-agent from {folder}: {ran[:3]}")
    text = run_installed(s, folder, ["doctor"], failures)
    if text.returncode != 0:
        failures.append(f"tfwsl doctor exited {text.returncode}")


def case_agent_missing(s, folder, failures):
    (folder / "tfwsl-agent").unlink()
    r = run_installed(s, folder, ["doctor", "--json"], failures)
    agent = checks_by_id(json.loads(r.stdout or "{}")).get("wsl.agent", {})
    fix = agent.get("fix", "")
    if agent.get("status") != "fail" or "reinstall tfwsl" not in fix or "cmake" in fix:
        failures.append(f"wsl.agent without tfwsl-agent beside tfwsl.exe: {agent.get('status')}, fix {fix!r}")
    text = run_installed(s, folder, ["doctor"], failures)
    if "reinstall tfwsl" not in text.stdout or "cmake" in text.stdout:
        failures.append("the text report does not tell to reinstall tfwsl (or mentions cmake)")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    WslSession.add_arguments(parser)
    parser.add_argument("--scenarios", required=True)
    parser.add_argument("--dist", required=True)
    parser.add_argument("--case", required=True, choices=["installed", "agent-missing"])
    args = parser.parse_args()
    for name in ("TFWSL_AGENT", "WINEPATH"):
        os.environ.pop(name, None)  # no other tfwsl-agent and no other folder to find one in
    failures = []
    root = pathlib.Path(tempfile.mkdtemp(prefix="tfwsl-installed-"))
    try:
        folder = install(args.dist, root)
        if any((p / "CMakeCache.txt").exists() for p in folder.parents):
            failures.append(f"{folder} lies in a build tree: the test must not")
        scenario = scenario_without_agent(args.scenarios, root)
        with WslSession.from_args(args, scenario) as s:
            s.program = "tfwsl.exe"  # found by Wine on PATH, as `tfwsl` is typed in a terminal
            (case_installed if args.case == "installed" else case_agent_missing)(s, folder, failures)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    for f in failures:
        print("FAILED:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
