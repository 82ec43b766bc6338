#!/usr/bin/env python3
"""`tfwsl-agent provision --check` under a probe root (TFWSL_PROBE_ROOT) reads only that root.

A copy of tests/wsl_standin/fake_distro is made provisioned (provisioned_distro.make_provisioned:
etc/passwd, dpkg's status, a real venv with stand-in wheels, the env file); then the real agent:
  - `--check --json`: exit 0, every step ok, the recap naming the distro's paths (/home/tfuser/...),
    never the build machine's (<temp>/distro/home/...); the user from the root's etc/wsl.conf
    when --user is not given;
  - with `curl` gone from the root's dpkg status: exit 1, apt.prerequisites would change;
  - the probe of the venv's TensorFlow runs as the agent (the uid in the root's etc/passwd is
    another machine's: this one has no such user);
  - apply (no --check): refused, exit 2, naming TFWSL_PROBE_ROOT;
  - `--dry-run --set distro=... --set python.version=...` plans with those over the profile's
    (tfwsl migrate's distro choice: TF 2.16 on an installed Ubuntu 22.04's Python 3.10);
  - and nothing written: the distro tree byte-identical (modes included) across the check runs,
    no state folder in it, /var/lib/tfwsl as it was.
Exit 0 / 1 / 77 (no `python3 -m venv` with pip here).
"""
import argparse
import hashlib
import json
import os
import pwd
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, os.pardir, os.pardir, "wsl_standin"))
import provisioned_distro as pd  # noqa: E402

sys.path.insert(0, os.path.join(HERE, os.pardir, "schema"))
import schema_support as ss  # noqa: E402

USER = "tfuser"
HOST_STATE = "/var/lib/tfwsl"
failures = []


def check(ok, what, detail=""):
    print(("ok: " if ok else "FAILED: ") + what)
    if not ok:
        failures.append(what)
        if detail:
            print("    " + str(detail).replace("\n", "\n    "))


def tree_state(top):
    """Every path under top with its mode and, for files, size and SHA-256 (links: their target)."""
    state = {}
    if not os.path.lexists(top):
        return state
    for dirpath, dirnames, filenames in os.walk(top):
        for name in dirnames + filenames:
            path = os.path.join(dirpath, name)
            st = os.lstat(path)
            entry = (st.st_mode,)
            if os.path.islink(path):
                entry += (os.readlink(path),)
            elif os.path.isfile(path):
                with open(path, "rb") as f:
                    entry += (st.st_size, hashlib.sha256(f.read()).hexdigest())
            state[os.path.relpath(path, top)] = entry
    return state


def venv_with_pip_available():
    p = subprocess.run([sys.executable, "-c", "import venv, ensurepip"], capture_output=True)
    return p.returncode == 0


def unused_uid():
    return next(uid for uid in range(4242, 60000) if uid not in {p.pw_uid for p in pwd.getpwall()})


def steps_of(doc):
    return {s["id"]: s for s in (doc or {}).get("recap", {}).get("steps", [])}


def all_ok(distro, agent, env, info, schemas):
    code, doc, stderr = pd.check_recap(distro, agent, USER, env)
    if schemas:
        found = ss.problems(schemas, "provision", doc or {})
        check(not found, "the check's JSON validates against provision.schema.json", "\n".join(found[:10]))
    steps = steps_of(doc)
    not_ok = {i: s["result"] for i, s in steps.items() if s["result"] != "ok"}
    check(code == 0 and steps and not not_ok, "provision --check --json exits 0 with every step ok",
          f"exit {code}; not ok: {not_ok}; {stderr[-600:]}")
    venv = steps.get("python.venv", {}).get("message", "")
    check(venv.startswith(info["venv"] + " (Python 3.10"), f"python.venv names the distro's venv {info['venv']}", venv)
    check(doc is not None and doc["plan"]["venv"] == "/home/tfuser/.venvs/tf-2.15", "the plan's venv is /home/tfuser/.venvs/tf-2.15",
          doc and doc["plan"]["venv"])
    text = json.dumps(doc)
    check(distro not in text, "the recap never names the build machine's path of the distro", text[:400])
    verify = steps.get("tensorflow.verify", {}).get("message", "")
    check("GPU:0" in verify, "tensorflow.verify: the venv's TensorFlow, probed under the root, sees the GPU", verify)


def default_user(distro, agent, env):
    env = dict(env, TFWSL_PROBE_ROOT=distro)
    env.pop("SUDO_USER", None)
    env.pop("WSL_DISTRO_NAME", None)
    p = subprocess.run([agent, "provision", "--check"], env=env, capture_output=True, text=True, timeout=300)
    check(p.returncode == 0 and "check mode: nothing was changed" in p.stdout and "driver.none-in-wsl" in p.stdout,
          "without --user and --platform: the root's etc/wsl.conf user, WSL from the root's kernel release (text recap, exit 0)",
          f"{p.returncode}: {p.stdout}{p.stderr}")


def missing_package(distro, agent, env):
    status = pd.at(distro, "/var/lib/dpkg/status")
    paragraphs = open(status).read().split("\n\n")
    kept = [p for p in paragraphs if "Package: curl\n" not in p + "\n"]
    check(len(kept) == len(paragraphs) - 1, "curl removed from the root's dpkg status")
    with open(status, "w") as f:
        f.write("\n\n".join(kept))
    before = tree_state(distro)
    code, doc, stderr = pd.check_recap(distro, agent, USER, env)
    steps = steps_of(doc)
    step = steps.get("apt.prerequisites", {})
    check(code == 1 and step.get("result") == "changed" and "not installed: curl" in step.get("message", ""),
          "without curl: exit 1, apt.prerequisites would change (not installed: curl)", f"exit {code}: {step} {stderr[-400:]}")
    others = {i: s["result"] for i, s in steps.items() if i != "apt.prerequisites" and s["result"] != "ok"}
    check(not others, "... and every other step is ok", others)
    check(tree_state(distro) == before, "... and that check changed nothing in the distro")


def apply_refused(distro, agent, env):
    env = dict(env, TFWSL_PROBE_ROOT=distro)
    p = subprocess.run([agent, "provision", "--platform", "wsl", "--user", USER], env=env, capture_output=True, text=True, timeout=60)
    check(p.returncode == 2 and "TFWSL_PROBE_ROOT" in p.stderr and "--check" in p.stderr,
          "apply under a probe root is refused (exit 2, naming TFWSL_PROBE_ROOT)", f"{p.returncode}: {p.stderr}")


def set_overrides(distro, agent, env):
    env = dict(env, TFWSL_PROBE_ROOT=distro)
    base = [agent, "provision", "--dry-run", "--json", "--platform", "wsl", "--user", USER, "--profile", "tf-2.16-cuda-12.3"]
    plain = subprocess.run(base, env=env, capture_output=True, text=True, timeout=60)
    over = subprocess.run(base + ["--set", "distro=Ubuntu-22.04", "--set", "python.version='3.10'"], env=env,
                          capture_output=True, text=True, timeout=60)
    try:
        plain_plan, over_plan = json.loads(plain.stdout)["plan"], json.loads(over.stdout)["plan"]
    except (json.JSONDecodeError, KeyError):
        check(False, "provision --dry-run --json answers a plan, with --set too", plain.stdout + plain.stderr + over.stdout + over.stderr)
        return
    check(plain_plan["distro"] == "Ubuntu-24.04" and "3.12" in plain_plan["python"],
          "tf-2.16-cuda-12.3 alone: Ubuntu 24.04 with Python 3.12", json.dumps(plain_plan)[:600])
    check(over.returncode == 0 and over_plan["distro"] == "Ubuntu-22.04" and "3.10" in over_plan["python"],
          "--set distro=Ubuntu-22.04 --set python.version='3.10': the plan takes both over the profile's",
          f"{over.returncode}: {json.dumps(over_plan)[:600]} {over.stderr[-400:]}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--agent", required=True)
    ap.add_argument("--fake-distro", required=True, help="tests/wsl_standin/fake_distro")
    ap.add_argument("--schemas", help="docs/schema: validate the check's JSON too (needs the jsonschema module)")
    args = ap.parse_args()
    if not venv_with_pip_available():
        print("SKIPPED: python3 -m venv with pip (Debian: python3-venv) is not installed")
        return 77
    schemas = ss.load_schemas(args.schemas) if args.schemas and ss.jsonschema is not None else None
    if args.schemas and schemas is None:
        print("note: the jsonschema module is missing: the check's JSON is not validated against the schema")
    host_before = tree_state(HOST_STATE)
    with tempfile.TemporaryDirectory(prefix="tfwsl-probe-root-") as work:
        distro = os.path.join(work, "distro")
        shutil.copytree(args.fake_distro, distro, symlinks=True)
        # The agent's own HOME and TMPDIR in the temp folder: whatever it wrote there would show.
        env = dict(os.environ, HOME=os.path.join(work, "home"), TMPDIR=os.path.join(work, "tmp"))
        os.makedirs(env["HOME"])
        os.makedirs(env["TMPDIR"])
        # A uid this machine does not have: a probe run through setpriv as that uid would fail here.
        info = pd.make_provisioned(distro, args.agent, uid=unused_uid())
        check(info["venv"] == "/home/tfuser/.venvs/tf-2.15" and info["venv_host"] == distro + "/home/tfuser/.venvs/tf-2.15",
              "make_provisioned: the venv's distro and host paths", info["venv"] + " " + info["venv_host"])
        distro_before = tree_state(distro)
        all_ok(distro, args.agent, env, info, schemas)
        default_user(distro, args.agent, env)
        check(tree_state(distro) == distro_before, "the checks changed nothing in the distro (every file, mode and byte)")
        check(not os.path.lexists(pd.at(distro, "/var/lib/tfwsl")), "no state folder was made in the distro")
        missing_package(distro, args.agent, env)
        apply_refused(distro, args.agent, env)
        set_overrides(distro, args.agent, env)
        check(os.listdir(env["HOME"]) == [] and os.listdir(env["TMPDIR"]) == [], "nothing in the agent's HOME or TMPDIR")
    check(tree_state(HOST_STATE) == host_before, f"{HOST_STATE} is as it was (a check needs no state folder)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
