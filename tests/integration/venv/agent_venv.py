"""tfwsl-agent venv install | verify with a real venv and a real pip (docs/cli.md, tfwsl-agent venv).

The wheels are the provisioning test's stand-ins (tests/integration/provision/standin_packages.py:
a stand-in tensorflow 2.15.1 that answers the agent's probe as a CUDA build seeing one GPU, its
and-cuda extra's nvidia wheels, numpy) plus a stand-in pyyaml built here; pip installs them from a
folder (PIP_NO_INDEX=1, PIP_FIND_LINKS). Shows: an install that needs pip runs it once and is met
after; a second install starts no process (bin/python is swapped for a trap that records any run,
and no new pip log appears); --check reports without running; bad inputs are named; verify passes
with the stand-in TensorFlow, fails naming a module that raises ImportError, and writes nothing
into the project.
"""
import argparse
import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "provision"))
sys.path.insert(0, os.path.join(HERE, "..", "schema"))
import schema_support  # noqa: E402
import standin_packages  # noqa: E402

SKIPPED = 77
FAILURES = []


def expect(condition, what, detail=""):
    print(("ok   " if condition else "FAIL ") + what)
    if not condition:
        FAILURES.append(what + (f"\n{detail}" if detail else ""))


TIMINGS = []


def run_agent(agent, env, *argv):
    started = time.monotonic()
    p = subprocess.run([agent, "venv", *argv], env=env, capture_output=True, text=True, timeout=300)
    TIMINGS.append((time.monotonic() - started, " ".join(argv[:1] + tuple(a for a in argv[1:] if a.startswith("--")))))
    return p


def json_of(p, what):
    try:
        return json.loads(p.stdout)
    except ValueError:
        FAILURES.append(f"{what}: no JSON on stdout (exit {p.returncode})\n{p.stdout}\n{p.stderr}")
        return {}


def tree_digest(folder):
    """Every path under the folder with its content's hash: any file written, changed or removed shows."""
    out = {}
    for root, dirs, files in os.walk(folder):
        for name in dirs + files:
            path = os.path.join(root, name)
            rel = os.path.relpath(path, folder)
            out[rel] = hashlib.sha256(open(path, "rb").read()).hexdigest() if os.path.isfile(path) else "dir"
    return out


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def make_world(work):
    home = os.path.join(work, "home")
    venv = os.path.join(home, "venv")
    os.makedirs(home)
    made = subprocess.run([sys.executable, "-m", "venv", venv], capture_output=True, text=True)
    if made.returncode != 0 or not os.path.exists(os.path.join(venv, "bin", "python")):
        print(f"skipped: {sys.executable} -m venv failed (python3-venv missing?):\n{made.stderr}")
        sys.exit(SKIPPED)
    wheels = os.path.join(work, "srv", "wheels")
    standin_packages.build_wheels(work)
    standin_packages._wheel(wheels, "PyYAML", "6.0.1", {"yaml/__init__.py": "__version__ = '6.0.1'\n"})
    proj = os.path.join(home, "proj")
    # Three absent packages (pyyaml here, numpy and tensorflow through the -r include), one whose
    # marker keeps it off Linux (pywin32 is not in the wheel folder: pip would fail if it were wanted).
    write(os.path.join(proj, "requirements.txt"),
          "# the project's requirements\n"
          "-r reqs/base.txt\n"
          "--extra-index-url https://example.invalid/simple\n"
          "PyYAML>=6  # configs\n"
          "pywin32>=306; sys_platform == \"win32\"\n")
    write(os.path.join(proj, "reqs", "base.txt"), "tensorflow[and-cuda]==2.15.* \\\n    ; python_version >= '3.9'\nnumpy==1.26.*\n")
    write(os.path.join(proj, "train.py"),
          "import os\nimport tensorflow as tf\n"
          "assert os.environ.get('TFWSL_VERIFY_MARK') == 'yes', 'the --env variable did not arrive'\n"
          "print('train sees TensorFlow', tf.__version__)\n")
    write(os.path.join(proj, "train-model.py"),
          "import tensorflow as tf\nprint('train-model sees TensorFlow', tf.__version__)\n"
          "if __name__ == '__main__':\n    print('TRAINING STARTED')\n")
    write(os.path.join(proj, "broken.py"), "import tensorflow\nraise ImportError(\"cannot import name 'Foo' from 'bar' (unknown location)\")\n")
    write(os.path.join(work, "extra", "absent.txt"), "numpy\nabsentpkg==1.0\n")
    env = dict(os.environ, HOME=home, PIP_NO_INDEX="1", PIP_FIND_LINKS=wheels, PYTHONDONTWRITEBYTECODE="")
    env.pop("PYTHONDONTWRITEBYTECODE")
    return home, venv, proj, env


def pip_logs(home):
    folder = os.path.join(home, ".cache", "tfwsl")
    return sorted(os.listdir(folder)) if os.path.isdir(folder) else []


def check_schema(schemas, key, document, what):
    if schemas is None:
        return
    found = schema_support.problems(schemas, key, document)
    expect(not found, f"{what}: valid against docs/schema/{key}.schema.json", "\n".join(found))


class Trap:
    """bin/python swapped for a script that records that it ran, so 'no process started' is seen."""

    def __init__(self, venv, work):
        self.python = os.path.join(venv, "bin", "python")
        self.saved = self.python + ".saved"
        self.mark = os.path.join(work, "trap-ran")

    def __enter__(self):
        os.rename(self.python, self.saved)
        write(self.python, f"#!/bin/sh\necho \"$@\" >> '{self.mark}'\nexit 97\n")
        os.chmod(self.python, 0o755)
        return self

    def ran(self):
        return os.path.exists(self.mark)

    def __exit__(self, *exc):
        os.remove(self.python)
        os.rename(self.saved, self.python)
        return False


def install_checks(agent, schemas, work, home, venv, proj, env):
    p = run_agent(agent, env, "install", "--venv", "~/venv", "-r", "~/proj/requirements.txt", "--json")
    first = json_of(p, "first install")
    expect(p.returncode == 0, "first install: exit 0", p.stdout + p.stderr)
    expect(first.get("pip_ran") is True and first.get("changed") is True, "first install: pip ran, changed")
    expect(first.get("requirements") == 4, "first install: 4 requirements read (include and marker line counted)", p.stdout)
    unmet = [u["requirement"] for u in first.get("unmet", [])]
    expect(unmet == ["tensorflow[and-cuda]==2.15.* ; python_version >= '3.9'", "numpy==1.26.*", "PyYAML>=6"],
           "first install: unmet were tensorflow and numpy (from the -r include) and PyYAML, not pywin32", str(unmet))
    expect(first.get("unmet_after") == [], "first install: nothing unmet after pip")
    log = first.get("log", "")
    expect(log.startswith(os.path.join(home, ".cache", "tfwsl", "pip-")) and os.path.isfile(log), "first install: the log is in ~/.cache/tfwsl", log)
    text = open(log).read() if os.path.isfile(log) else ""
    expect("Successfully installed" in text and "pyyaml" in text.lower(), "first install: the log holds pip's output", text[-2000:])
    check_schema(schemas, "venv-install", first, "first install")
    logs_before = pip_logs(home)
    with Trap(venv, work) as trap:
        p = run_agent(agent, env, "install", "--venv", "~/venv", "-r", "~/proj/requirements.txt", "--json")
        second = json_of(p, "second install")
        expect(p.returncode == 0 and second.get("pip_ran") is False and second.get("changed") is False
               and second.get("unmet") == [], "second install: met, pip did not run, exit 0", p.stdout + p.stderr)
        check_schema(schemas, "venv-install", second, "second install")
        p = run_agent(agent, env, "install", "--venv", "~/venv", "-r", os.path.join(proj, "requirements.txt"))
        expect(p.returncode == 0 and p.stdout.strip() == "requirements met: 4", "second install (text): 'requirements met: 4'", p.stdout + p.stderr)
        p = run_agent(agent, env, "install", "--venv", venv, "-r", os.path.join(work, "extra", "absent.txt"), "--check", "--json")
        checked = json_of(p, "--check")
        expect(p.returncode == 1 and [u["requirement"] for u in checked.get("unmet", [])] == ["absentpkg==1.0"]
               and checked.get("pip_ran") is False, "--check with an absent package: exit 1, names it, runs nothing", p.stdout + p.stderr)
        check_schema(schemas, "venv-install", checked, "--check")
        expect(not trap.ran(), "no python/pip process was started by the met installs or --check")
    expect(pip_logs(home) == logs_before, "no new pip log after the met installs and --check", str(pip_logs(home)))
    wheel = os.path.join(work, "srv", "wheels", "PyYAML-6.0.1-py3-none-any.whl")
    p = run_agent(agent, env, "install", "--venv", venv, "--package", wheel, "--package", "numpy; implementation_name == 'cpython'", "--json")
    decided = json_of(p, "pip decides")
    expect(p.returncode == 0 and decided.get("pip_ran") is True and decided.get("unmet_after") == []
           and [u["pip_decides"] for u in decided.get("unmet", [])] == [True, True],
           "a wheel path and a marker only pip can evaluate: pip runs, succeeds, exit 0", p.stdout + p.stderr)
    check_schema(schemas, "venv-install", decided, "pip decides")


class HangingPip(Trap):
    """bin/python as a pip that hangs, with a child of its own: what a stop must reach."""

    def __enter__(self):
        os.rename(self.python, self.saved)
        write(self.python, f"#!/bin/sh\nsleep 120 &\necho $! > '{self.mark}.child'\necho $$ > '{self.mark}'\n"
                           "echo 'Collecting absentpkg==1.0'\nwait\n")
        os.chmod(self.python, 0o755)
        return self

    def pids(self):
        try:
            return [int(open(self.mark).read()), int(open(self.mark + ".child").read())]
        except (OSError, ValueError):
            return []

    def __exit__(self, *exc):
        for name in (self.mark, self.mark + ".child"):
            if os.path.exists(name):
                os.remove(name)
        return super().__exit__(*exc)


def alive(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"  # a zombie has stopped
    except OSError:
        return False


def stop_checks(agent, work, venv, env):
    with HangingPip(venv, work) as trap:
        started = time.monotonic()
        p = run_agent(agent, env, "install", "--venv", venv, "--package", "absentpkg==1.0", "--timeout-s", "2")
        took = time.monotonic() - started
        pids = trap.pids()
        expect(p.returncode == 2 and "pip ran past --timeout-s 2 and was stopped" in p.stderr and took < 30,
               f"a hanging pip is stopped at --timeout-s 2 (took {took:.1f} s), exit 2", p.stderr)
        expect("Collecting absentpkg==1.0" in p.stderr, "its last lines are shown", p.stderr)
        expect(len(pids) == 2 and all_gone(pids), "pip and the child it started are gone", str(pids))
    with HangingPip(venv, work) as trap:
        agent_process = subprocess.Popen([agent, "venv", "install", "--venv", venv, "--package", "absentpkg==1.0"], env=env,
                                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 30
        while len(trap.pids()) < 2 and time.monotonic() < deadline and agent_process.poll() is None:
            time.sleep(0.05)
        pids = trap.pids()
        agent_process.send_signal(signal.SIGTERM)
        try:
            out, err = agent_process.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            agent_process.kill()
            out, err = agent_process.communicate()
        expect(agent_process.returncode == 130 and "interrupted" in err, "SIGTERM to the agent: exit 130", f"{agent_process.returncode}\n{err}")
        expect(len(pids) == 2 and all_gone(pids), "SIGTERM to the agent: pip and its child are gone",
               f"{pids}, alive: {[pid for pid in pids if alive(pid)]}")


def group_members(pgid):
    """Live processes whose process group is pgid (from /proc/*/stat)."""
    out = []
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                fields = open(f"/proc/{name}/stat").read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if fields[0] != "Z" and int(fields[2]) == pgid:
                out.append(int(name))
    return out


def all_gone(pids, pgid=None, within=5.0):
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if not any(alive(pid) for pid in pids) and not (pgid and group_members(pgid)):
            return True
        time.sleep(0.05)
    return False


def spawned(mark, wait=30.0):
    """(python's pid, its sleep's pid, python's process group) as the spawner module wrote them."""
    deadline = time.monotonic() + wait
    while True:
        try:
            python, sleep, pgid = (int(x) for x in open(mark).read().split())
            return python, sleep, pgid
        except (OSError, ValueError):
            if time.monotonic() >= deadline:
                return None
            time.sleep(0.05)


def containment_checks(agent, work, venv, env):
    """Issue 22, item 14: nothing the agent starts outlives its run (by pid and by process group)."""
    proj = os.path.join(work, "spawnproj")
    write(os.path.join(proj, "spawner.py"),
          "import os, subprocess, time\nchild = subprocess.Popen(['sleep', '300'])\n"
          "open(os.environ['TFWSL_SPAWN_MARK'], 'w').write(f'{os.getpid()} {child.pid} {os.getpgid(0)}\\n')\n"
          "if os.environ.get('TFWSL_SPAWN_HANG') == '1':\n    time.sleep(600)\n")
    for hang, what in (("1", "an import past --timeout-s"), ("0", "an import that returns and leaves its sleep")):
        mark = os.path.join(work, f"spawn-{hang}")
        p = run_agent(agent, env, "verify", "--venv", venv, "--project", proj, "--module", "spawner", "--timeout-s", "3",
                      "--env", f"TFWSL_SPAWN_MARK={mark}", "--env", f"TFWSL_SPAWN_HANG={hang}")
        got = spawned(mark, wait=0)
        expect(got is not None and all_gone(got[:2], got[2]), f"verify, {what}: the module and its sleep are gone", f"{got}\n{p.stderr}")
    mark = os.path.join(work, "spawn-killed")
    agent_process = subprocess.Popen([agent, "venv", "verify", "--venv", venv, "--project", proj, "--module", "spawner",
                                      "--env", f"TFWSL_SPAWN_MARK={mark}", "--env", "TFWSL_SPAWN_HANG=1"], env=env,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    got = spawned(mark)
    agent_process.kill()
    agent_process.wait()
    expect(got is not None and all_gone(got[:2], got[2]), "verify, the agent SIGKILLed during the import: the module and its sleep die with it",
           str(got))
    with HangingPip(venv, work) as trap:
        agent_process = subprocess.Popen([agent, "venv", "install", "--venv", venv, "--package", "absentpkg==1.0"], env=env,
                                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 30
        while len(trap.pids()) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        pids = trap.pids()
        pgid = os.getpgid(pids[0]) if pids and alive(pids[0]) else None
        agent_process.kill()
        agent_process.wait()
        expect(len(pids) == 2 and all_gone(pids, pgid), "install, the agent SIGKILLed while pip runs: pip and its child die with it",
               f"{pids} pgid {pgid}")


def input_error_checks(agent, work, venv, env):
    missing = os.path.join(work, "nowhere", "requirements.txt")
    p = run_agent(agent, env, "install", "--venv", venv, "-r", missing)
    expect(p.returncode == 2 and missing in p.stderr, "a missing requirements file: exit 2 naming it", p.stderr)
    write(os.path.join(work, "extra", "includes-missing.txt"), "numpy\n-r gone.txt\n")
    p = run_agent(agent, env, "install", "--venv", venv, "-r", os.path.join(work, "extra", "includes-missing.txt"))
    expect(p.returncode == 2 and os.path.join(work, "extra", "gone.txt") in p.stderr and "includes-missing.txt:2" in p.stderr,
           "a missing -r include: exit 2 naming it and the line that names it", p.stderr)
    p = run_agent(agent, env, "install", "--venv", os.path.join(work, "not-a-venv"), "--package", "numpy")
    expect(p.returncode == 2 and "not-a-venv is not a venv: run tfwsl provision first" in p.stderr, "not a venv: exit 2 naming it", p.stderr)
    p = run_agent(agent, env, "install", "--venv", venv, "--package", "absentpkg==1.0", "--json")
    failed = json_of(p, "pip failure")
    expect(p.returncode == 2 and failed.get("pip_ran") is True and failed.get("pip_exit_code", 0) != 0
           and "still unmet:\n  absentpkg==1.0 (--package): absentpkg is not installed" in p.stderr
           and "pip's last lines" in p.stderr and "No matching distribution" in p.stderr,
           "pip failing: exit 2, the unmet one named, pip's last lines shown", p.stdout + p.stderr)
    expect(any("No matching distribution" in l for l in failed.get("pip_tail", [])) and failed.get("error"),
           "pip failing --json: the answer carries pip's last lines (pip_tail) and the error", json.dumps(failed)[:600])
    p = run_agent(agent, env, "install", "--venv", os.path.join(work, "not-a-venv"), "--package", "numpy", "--json")
    doc = json_of(p, "not a venv --json")
    expect(p.returncode == 2 and "is not a venv" in doc.get("error", ""), "not a venv with --json: the error is JSON", p.stdout + p.stderr)


def verify_checks(agent, schemas, venv, proj, env):
    before = tree_digest(proj)
    p = run_agent(agent, env, "verify", "--venv", "~/venv", "--project", "~/proj", "--module", "train",
                  "--env", "TFWSL_VERIFY_MARK=yes", "--json")
    good = json_of(p, "verify train")
    expect(p.returncode == 0 and good.get("ok") is True, "verify with train.py: ok, exit 0", p.stdout + p.stderr)
    expect(good.get("tensorflow") == {"version": "2.15.1", "gpus": ["/physical_device:GPU:0"]}, "verify: TensorFlow 2.15.1 sees one GPU",
           json.dumps(good.get("tensorflow")))
    expect([(c["id"], c["status"]) for c in good.get("checks", [])] == [("tf.installed", "ok"), ("tf.build", "ok"), ("tf.gpu", "ok")],
           "verify: the judge's tf.* checks are ok", json.dumps(good.get("checks")))
    expect((good.get("import") or {}).get("ok") is True and "train sees TensorFlow 2.15.1" in (good.get("import") or {}).get("output", []),
           "verify: import train ran with the --env variable", json.dumps(good.get("import")))
    check_schema(schemas, "venv-verify", good, "verify train")
    p = run_agent(agent, env, "verify", "--venv", "~/venv", "--project", "~/proj", "--module", "train")
    expect(p.returncode == 2 and "import train failed" in p.stderr and "the --env variable did not arrive" in p.stderr,
           "verify without the --env variable: train fails, exit 2", p.stdout + p.stderr)
    p = run_agent(agent, env, "verify", "--venv", "~/venv", "--project", "~/proj", "--module", "broken", "--json")
    bad = json_of(p, "verify broken")
    last = "ImportError: cannot import name 'Foo' from 'bar' (unknown location)"
    expect(p.returncode == 2 and bad.get("ok") is False and "import broken failed: " + last in p.stderr,
           "verify with a module raising ImportError: exit 2 naming it with the error's last line", p.stdout + p.stderr)
    check_schema(schemas, "venv-verify", bad, "verify broken")
    p = run_agent(agent, env, "verify", "--venv", "~/venv", "--project", "~/proj")
    expect(p.returncode == 0 and "tf.gpu" in p.stdout and "import" not in p.stdout, "verify without --module: the tf checks only", p.stdout + p.stderr)
    p = run_agent(agent, env, "verify", "--venv", "~/venv", "--project", "~/no-such-project", "--module", "train")
    expect(p.returncode == 2 and "no-such-project does not exist" in p.stderr, "verify with a missing project: exit 2 naming it", p.stderr)
    p = run_agent(agent, env, "verify", "--venv", "~/venv", "--project", "~/proj", "--module", "os; import shutil")
    expect(p.returncode == 2 and "is not a Python module name" in p.stderr, "verify with a module that is not a name: exit 2", p.stderr)
    p = run_agent(agent, env, "verify", "--venv", "~/venv", "--project", "~/proj", "--module", "train-model", "--json")
    doc = json_of(p, "verify --module train-model --json")
    expect(p.returncode == 2 and "--script train-model.py" in doc.get("error", ""),
           "verify --json with a name no import can take: the error is JSON and names --script", p.stdout + p.stderr)
    check_schema(schemas, "venv-verify", doc, "verify error")
    p = run_agent(agent, env, "verify", "--venv", "~/venv", "--project", "~/proj", "--script", "train-model.py",
                  "--env", "TFWSL_VERIFY_MARK=yes", "--json")
    doc = json_of(p, "verify --script")
    expect(p.returncode == 0 and doc.get("import", {}).get("ok") is True and doc["import"].get("module") == "train-model.py",
           "verify --script train-model.py: run by its path, ok", p.stdout + p.stderr)
    expect(not any("TRAINING STARTED" in l for l in doc.get("import", {}).get("output", [])),
           "... as an import runs it: its __main__ block did not start", json.dumps(doc.get("import")))
    p = run_agent(agent, env, "verify", "--venv", "~/venv", "--project", "~/proj", "--script", "../escape.py", "--json")
    expect(p.returncode == 2 and "is not a .py file inside the project" in json_of(p, "escape").get("error", ""),
           "verify --script outside the project: refused, as JSON", p.stdout + p.stderr)
    after = tree_digest(proj)
    expect(after == before and not any("__pycache__" in k for k in after), "the project folder is unchanged after verify (no __pycache__)",
           str(sorted(set(after) ^ set(before))))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--agent", required=True)
    ap.add_argument("--schemas", required=True)
    ap.add_argument("--work", required=True)
    a = ap.parse_args()
    shutil.rmtree(a.work, ignore_errors=True)
    os.makedirs(a.work)
    schemas = schema_support.load_schemas(a.schemas) if schema_support.jsonschema else None
    if schemas is None:
        print("note: jsonschema is missing, the outputs are not validated against docs/schema")
    started = time.monotonic()
    home, venv, proj, env = make_world(a.work)
    print(f"time: the venv and the wheels took {time.monotonic() - started:.1f} s")
    install_checks(a.agent, schemas, a.work, home, venv, proj, env)
    input_error_checks(a.agent, a.work, venv, env)
    stop_checks(a.agent, a.work, venv, env)
    containment_checks(a.agent, a.work, venv, env)
    verify_checks(a.agent, schemas, venv, proj, env)
    for seconds, what in TIMINGS:
        print(f"time: {seconds:5.2f} s  venv {what}")
    if FAILURES:
        print("\nFAILED:\n" + "\n\n".join(FAILURES))
        return 1
    shutil.rmtree(a.work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
