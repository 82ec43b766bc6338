#!/usr/bin/env python3
"""tfwsl's DSC resources run as DSC v3 runs them (dsc_engine.py, from PowerShell/DSC's source),
natively, with tfwsl and its two manifests installed in a folder on PATH as release.sh ships them:

1. every manifest and instance schema compiles with nothing fetched; each manifest validates
   against DSC's manifest schema and declares export;
2. Tfwsl/WslConfig on a real .wslconfig: get with no input (DSC closes stdin: natively there is
   no user's .wslconfig, and the message says so at DSC's error level), get, test, set, test, set
   again (nothing changes), export (the file's keys, one instance per line);
3. Tfwsl/Profile: get with no input fails with tfwsl's message logged at DSC's error level (not
   only the manifest's exit-code text, never "not JSON"); export is the profile in effect (the
   user's default profile here), checked;
4. the configuration as the engine runs it on a fresh machine: the old single document fails with
   ResourceNotFound(Tfwsl/...) before anything runs; install.dsc.yaml installs tfwsl (a stand-in
   Microsoft.WinGet/Package) and the same process still does not find tfwsl's resources; a new
   process (discovery again, the new PATH) runs configuration.dsc.yaml: test, set, test in the
   desired state. Both documents validate against DSC's configuration document schema.
What is not run here: DSC itself (not packaged for Debian) and Wine (the resources' get/test/set
under Wine: windows.fleet.dsc).
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

import fleet_support as fs
from dsc_engine import DscError, Engine

HERE = os.path.dirname(os.path.abspath(__file__))
TYPES = ("Tfwsl/WslConfig", "Tfwsl/Profile")
failures = []


def check(condition, what, detail=""):
    print(("ok: " if condition else "FAILED: ") + what + ("" if condition or not detail else f"\n    {str(detail)[:3000]}"))
    if not condition:
        failures.append(what)


def package(tfwsl, work):
    """tfwsl and its manifests in one folder, as the release zip has them."""
    folder = os.path.join(work, "package")
    os.makedirs(folder)
    os.symlink(os.path.abspath(tfwsl), os.path.join(folder, "tfwsl"))
    for kind in TYPES:
        manifest = subprocess.run([tfwsl, "dsc", "manifest", "--resource", kind], capture_output=True, text=True, check=True)
        name = kind.lower().replace("/", ".") + ".dsc.resource.json"
        with open(os.path.join(folder, name), "w", encoding="utf-8") as f:
            f.write(manifest.stdout)
    return folder


def outcome(call):
    try:
        return call(), None
    except DscError as e:
        return None, e


def manifests(engine):
    for kind in TYPES:
        manifest = engine.resources[kind][0]
        schema = manifest["schema"]["embedded"]
        check(fs.compiles_offline(schema) is None, f"{kind}: the instance schema compiles with nothing fetched",
              fs.compiles_offline(schema))
        check(not fs.problems(fs.dsc_schema("resource.manifest"), manifest), f"{kind}: the manifest fits DSC's manifest schema",
              fs.problems(fs.dsc_schema("resource.manifest"), manifest))
        check(manifest.get("export", {}).get("args") == ["dsc", "export", "--resource", kind], f"{kind}: export is declared")


def wslconfig(engine, path):
    kind = "Tfwsl/WslConfig"
    with open(path, "wb") as f:
        f.write(b"[wsl2]\r\nmemory=4GB\r\n")
    engine.log.clear()
    _, error = outcome(lambda: engine.get(kind))
    logged = engine.errors()
    check(error is not None and engine.calls[-1][1] is None and any("pass --file PATH" in m for m in logged)
          and not any("not JSON" in m for m in logged),
          "WslConfig get with no input (stdin closed): natively there is no user's .wslconfig, said at error level",
          f"{error}\n    logged: {engine.log}")
    state, error = outcome(lambda: engine.get(kind, json.dumps({"file": path})))
    check(error is None and state == {"file": path, "memory": "4GB"}, "WslConfig get of a file: its keys", error or state)
    desired = json.dumps({"file": path, "memory": "16GB", "processors": 8})
    tested, error = outcome(lambda: engine.test(kind, desired))
    check(error is None and tested["inDesiredState"] is False and tested["differingProperties"] == ["memory", "processors"],
          "WslConfig test: memory and processors differ", error or tested)
    done, error = outcome(lambda: engine.set(kind, desired))
    check(error is None and done["afterState"].get("memory") == "16GB" and done["beforeState"].get("memory") == "4GB",
          "WslConfig set: before and after as DSC reports them", error or done)
    tested, error = outcome(lambda: engine.test(kind, desired))
    check(error is None and tested["inDesiredState"] is True, "WslConfig test after set: in the desired state", error or tested)
    written = open(path, "rb").read()
    done, error = outcome(lambda: engine.set(kind, desired))
    check(error is None and open(path, "rb").read() == written, "a second set changes nothing", error)
    exported, error = outcome(lambda: engine.export(kind, json.dumps({"file": path})))
    check(error is None and exported == [{"file": path, "memory": "16GB", "processors": 8}],
          "WslConfig export of the file: its keys, one instance", error or exported)


def profile(engine, in_effect):
    kind = "Tfwsl/Profile"
    engine.log.clear()
    state, error = outcome(lambda: engine.get(kind))
    logged = engine.errors()
    check(error is not None and error.kind == "CommandExitFromManifest" and any("needs 'profile'" in m for m in logged)
          and not any("not JSON" in m for m in logged),
          "Profile get with no input: DSC fails on the exit code and logs tfwsl's own message at error level",
          f"{error}\n    logged: {engine.log}")
    exported, error = outcome(lambda: engine.export(kind))
    check(error is None and len(exported) == 1 and exported[0]["profile"] == in_effect and "counts" in exported[0],
          "Profile export: the profile in effect (the user's default profile), checked", error or exported)


def documents(docs):
    import yaml
    loaded = {}
    for name in ("install.dsc.yaml", "configuration.dsc.yaml"):
        with open(os.path.join(docs, "fleet", name), encoding="utf-8") as f:
            loaded[name] = yaml.safe_load(f)
        check(not fs.problems(fs.dsc_schema("config.document"), loaded[name]), f"{name} fits DSC's document schema",
              fs.problems(fs.dsc_schema("config.document"), loaded[name]))
    return loaded["install.dsc.yaml"], loaded["configuration.dsc.yaml"]


def here_instead(configuration, path):
    """The configuration with this machine's paths: the test's .wslconfig, no WSL restart, a
    built-in profile (the team's file is a Windows path)."""
    local = json.loads(json.dumps(configuration))
    for resource in local["resources"]:
        if resource["type"] == "Tfwsl/WslConfig":
            resource["properties"].pop("restart", None)
            resource["properties"]["file"] = path
    local["resources"] = [r for r in local["resources"] if r["type"] == "Tfwsl/WslConfig"]
    return local


def fresh_machine(env, work, package_folder, docs):
    install, configuration = documents(docs)
    installed = os.path.join(work, "installed")
    env = dict(env, TFWSL_STANDIN_PACKAGE=package_folder, TFWSL_STANDIN_INSTALL=installed,
               PATH=os.pathsep.join([os.path.join(HERE, "winget-standin"), installed, env["PATH"]]))
    first = Engine(env)
    combined = {"resources": install["resources"] + configuration["resources"]}
    _, error = outcome(lambda: first.config(combined, "set"))
    check(error is not None and error.kind == "ResourceNotFound" and error.message.startswith("Tfwsl/")
          and not os.path.isdir(installed), "one document on a fresh machine: ResourceNotFound before anything runs", error)
    done, error = outcome(lambda: first.config(install, "set"))
    check(error is None and os.path.isdir(installed), "install.dsc.yaml installs tfwsl", error or done)
    local = here_instead(configuration, os.path.join(work, "fresh.wslconfig"))
    _, error = outcome(lambda: first.config(local, "test"))
    check(error is not None and error.kind == "ResourceNotFound", "... and the same process still cannot find its resources", error)
    second = Engine(env)
    tested, error = outcome(lambda: second.config(local, "test"))
    check(error is None and tested["WSL memory"]["inDesiredState"] is False,
          "a new process finds them: configuration.dsc.yaml test, out of the desired state", error or tested)
    _, error = outcome(lambda: second.config(local, "set"))
    tested, error2 = outcome(lambda: second.config(local, "test"))
    check(error is None and error2 is None and tested["WSL memory"]["inDesiredState"] is True,
          "... set, then test in the desired state", error or error2 or tested)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tfwsl", required=True)
    parser.add_argument("--docs", required=True)
    args = parser.parse_args()
    if fs.jsonschema is None:
        print("skipped: the Python module jsonschema is missing (Debian: apt-get install python3-jsonschema)")
        return fs.SKIPPED
    work = tempfile.mkdtemp(prefix="tfwsl-dsc-engine-")
    try:
        home = os.path.join(work, "home")
        profile_file = os.path.join(home, ".config", "tfwsl", "profile.yaml")
        os.makedirs(os.path.dirname(profile_file))
        shutil.copy(os.path.join(os.path.dirname(args.docs), "profiles", "tf-2.15-cuda-12.2.yaml"), profile_file)
        folder = package(args.tfwsl, work)
        env = dict(os.environ, HOME=home, USERPROFILE=home, XDG_CONFIG_HOME=os.path.join(home, ".config"),
                   PATH=os.pathsep.join([folder, os.environ.get("PATH", "")]))
        engine = Engine(env)
        manifests(engine)
        wslconfig(engine, os.path.join(home, ".wslconfig"))
        profile(engine, profile_file)
        fresh_machine(dict(os.environ, HOME=home, USERPROFILE=home), work, folder, args.docs)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    for f in failures:
        print("FAILED:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
