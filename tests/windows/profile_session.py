#!/usr/bin/env python3
"""tfwsl.exe profile under Wine, in one stand-in world (tfwsl_wsl_session: the wsl.exe stand-in,
the relay, the real tfwsl-agent in the fake distro of the healthy scenario):

1. a project's tfwsl.yaml extends a team base in another folder by a relative path: `profile show`
   resolves it from the file's folder, and finds the project's tfwsl.yaml from a subfolder;
2. `profile diff` on the machine that has what the profile says: no drift (exit 0);
3. the machine changed in TensorFlow (relay.txt tf-version), driver (nvidia-smi.exe's answer and
   NVML's) and .wslconfig memory: exactly those three drifts (exit 1);
4. `profile export -o FILE` there, then `profile diff FILE`: no drift;
5. `profile init -o FILE` refuses to replace a file without --yes and replaces it with --yes (the
   rename over an existing file on Windows).
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

from wsl_session import WslSession

failures = []


def expect(condition, what, detail=""):
    print(("ok: " if condition else "FAILED: ") + what)
    if not condition:
        failures.append(what)
        print(str(detail)[:4000])


def json_of(r, what):
    try:
        return json.loads(r.stdout)
    except json.JSONDecodeError:
        failures.append(what)
        print(f"FAILED: {what} printed no JSON (exit {r.returncode}):\n{r.stdout[:2000]}\n{r.stderr[:2000]}")
        return {}


def set_pairs(path, changes):
    """relay.txt-style `key = value` lines, changed or added."""
    with open(path) as f:
        lines = [l for l in f.read().splitlines() if l.split(" = ")[0].strip() not in changes]
    lines += [f"{k} = {v}" for k, v in changes.items()]
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def layout(work):
    os.makedirs(os.path.join(work, "team-base"))
    os.makedirs(os.path.join(work, "project", "src"))
    with open(os.path.join(work, "team-base", "base.yaml"), "w") as f:
        f.write('name: team-base\nextends: builtin:tf-2.15-cuda-12.2\nwsl: { memory: 16GB }\ngpu: { driver: "546.80" }\n')
    with open(os.path.join(work, "project", "tfwsl.yaml"), "w") as f:
        f.write("extends: ../team-base/base.yaml\nname: project\n")
    wslconfig = os.path.join(work, "wslconfig.txt")
    with open(wslconfig, "w", newline="") as f:
        f.write("[wsl2]\r\nmemory=16GB\r\nprocessors=8\r\n")
    return wslconfig


def show(s, work, env):
    project = s.windows_path(os.path.join(work, "project", "tfwsl.yaml"))
    doc = json_of(s.run(["profile", "show", "--json", project], env=env), "profile show --json")
    settings = {x["key"]: x for x in doc.get("settings", [])}
    where = settings.get("wsl.memory", {}).get("where", "")
    expect(re.search(r"team-base[\\/]base\.yaml:3:16$", where) is not None,
           "under Wine the relative extends reaches the team base in another folder", where)
    found = subprocess.run(s.command(["profile", "show", "--json"]), capture_output=True, text=True, timeout=300,
                           env=dict(os.environ, **env), cwd=os.path.join(work, "project", "src"))
    doc = json_of(found, "profile show --json from the project's subfolder")
    expect(doc.get("profile", {}).get("origin") == "project" and doc["profile"]["name"] == "project",
           "the project's tfwsl.yaml is found from a subfolder", doc.get("profile"))


def diff(s, profile, env):
    r = s.run(["profile", "diff", "--json", profile], env=env)
    return r, json_of(r, "profile diff --json")


def main():
    parser = argparse.ArgumentParser()
    WslSession.add_arguments(parser)
    parser.add_argument("--scenarios", required=True)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as work, WslSession.from_args(args, f"{args.scenarios}/healthy") as s:
        wslconfig = layout(work)
        env = {"TFWSL_WSLCONFIG": s.windows_path(wslconfig)}
        project = s.windows_path(os.path.join(work, "project", "tfwsl.yaml"))
        show(s, work, env)
        r, doc = diff(s, project, env)
        expect(r.returncode == 0 and doc.get("drifts") == [] and doc.get("machine", {}).get("distro") == "Ubuntu-22.04",
               "the healthy machine has what the profile says: no drift, exit 0", f"exit {r.returncode}\n{doc}\n{r.stderr}")
        expect({"distro", "wsl.memory", "gpu.driver", "tensorflow.version"} <= set(doc.get("same", [])),
               "distro, memory, driver and TensorFlow compared the same", doc.get("same"))

        set_pairs(s.work / "scenario" / "relay.txt", {"tf-version": "2.16.1", "nvml-driver": "537.58"})
        (s.work / "scenario" / "nvidia-smi.txt").write_text("NVIDIA GeForce RTX 3080, 537.58, WDDM, 10240 MiB\n")
        with open(wslconfig, "w", newline="") as f:
            f.write("[wsl2]\r\nmemory=8GB\r\nprocessors=8\r\n")
        r, doc = diff(s, project, env)
        drifts = {d["key"]: d for d in doc.get("drifts", [])}
        expect(r.returncode == 1 and sorted(drifts) == ["gpu.driver", "tensorflow.version", "wsl.memory"],
               "another TF, driver and memory: exactly those three drifts, exit 1", f"exit {r.returncode}\n{json.dumps(doc, indent=1)}")
        if len(drifts) == 3:
            expect(drifts["tensorflow.version"]["found"] == "2.16.1", "TensorFlow 2.16.1 found", drifts["tensorflow.version"])
            expect(drifts["gpu.driver"]["found"] == "537.58 (the Windows driver)", "the Windows driver is compared", drifts["gpu.driver"])
            expect(drifts["wsl.memory"]["found"] == "8GB" and wslconfig_named(drifts["wsl.memory"]["fix"]),
                   "the .wslconfig memory, with the file to change", drifts["wsl.memory"])

        exported = os.path.join(work, "machine.yaml")
        r = s.run(["profile", "export", "-q", "-o", s.windows_path(exported)], env=env)
        expect(r.returncode == 0 and os.path.exists(exported), "profile export -o writes the file", r.stderr)
        if os.path.exists(exported):
            text = open(exported).read()
            expect("distro: Ubuntu-22.04" in text and 'version: "==2.16.1"' in text and "memory: 8GB" in text,
                   "it describes the changed machine", text)
            r, doc = diff(s, s.windows_path(exported), env)
            expect(r.returncode == 0 and doc.get("drifts") == [], "export then diff on the same machine: no drift",
                   f"exit {r.returncode}\n{json.dumps(doc, indent=1)}\n{r.stderr}")
        init_replaces(s, work)
    for f in failures:
        print("FAILED:", f)
    return 1 if failures else 0


def init_replaces(s, work):
    target = os.path.join(work, "init.yaml")
    with open(target, "w") as f:
        f.write("name: mine\n")
    refused = s.run(["profile", "init", "-o", s.windows_path(target)])
    expect(refused.returncode == 2 and open(target).read() == "name: mine\n", "init refuses to replace without --yes",
           refused.stderr)
    replaced = s.run(["profile", "init", "-o", s.windows_path(target), "--yes"])
    text = open(target).read()
    expect(replaced.returncode == 0 and "name: tf-2.15-cuda-12.2" in text and not [n for n in os.listdir(work) if "tfwsl-tmp" in n],
           "--yes replaces it, leaving no temporary file", replaced.stderr)


def wslconfig_named(fix):
    return fix.startswith("tfwsl wslconfig set memory=16GB --apply") and "wslconfig.txt" in fix


if __name__ == "__main__":
    sys.exit(main())
