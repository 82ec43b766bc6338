#!/usr/bin/env python3
"""`tfwsl run` and `tfwsl shell` natively (docs/cli.md, "tfwsl run"), with real processes: a migrated
project's WSL copy and its Windows original (here a Linux folder, as migrate records it natively),
each with the record migrate writes (.tfwsl/wsl-copy.json), and a real venv (python3 -m venv).

Shows: the command's own exit status (0, 3, 130 for SIGINT, 137 for SIGKILL) and tfwsl's own 125,
126 and 127; Ctrl-C sent to the terminal's foreground group reaching the command and what it
started, leaving no process; output streaming line by line while the command runs; stdin piped
through; Windows paths translated from the path map and from drive letters, a network path refused
by name with nothing run; an unhealthy environment (a failed GPU check, a venv whose python is gone)
stopping the run before the command starts; the project found from a subfolder of the Windows
original; --dry-run running nothing; --where --json against docs/schema/run-where.schema.json.
`tfwsl code`: the interpreter and a debug configuration merged into the copy's .vscode (absent,
present with the user's keys, with comments: refused and left as it is, a link: refused), then VS
Code opened there (a recording stand-in for `code`).
`tfwsl notebook`: the plan for a venv that lacks ipykernel and JupyterLab, the kernel registered and
listed by Jupyter's own kernelspec list, JupyterLab (a stand-in) started on loopback with the token.
Usage: run_native.py --tfwsl PATH --agent PATH --schemas DIR"""
import argparse
import json
import os
import pathlib
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "schema"))
import schema_support as ss  # noqa: E402
from migrated_project import MigratedProject  # noqa: E402
import run_cases  # noqa: E402

FAILURES = []


def check(ok, what):
    print(("ok    " if ok else "FAIL  ") + what)
    if not ok:
        FAILURES.append(what)


class World(MigratedProject):
    def __init__(self, tfwsl, root):
        super().__init__(root)
        self.tfwsl = tfwsl

    def env(self):
        return dict(os.environ, SHELL="/bin/bash", VIRTUAL_ENV="", TFWSL_TEST_MARK="")

    def run(self, args, cwd=None, input=None, timeout=60):
        return subprocess.run([self.tfwsl, *args], cwd=str(cwd or self.copy), input=input, capture_output=True,
                              text=True, timeout=timeout, env=self.env())


PY = "python"  # the venv's, found through the PATH the run sets


def environment_and_place(w):
    r = w.run(["run", "--", PY, "-c", "import os, sys; print(sys.prefix); print(os.getcwd()); "
               "print(os.environ['TF_USE_LEGACY_KERAS']); print(os.environ['VIRTUAL_ENV'])"],
              cwd=w.original / "scripts")
    lines = r.stdout.splitlines()
    check(r.returncode == 0 and lines == [str(w.venv), str(w.copy / "scripts"), "1", str(w.venv)],
          f"from the Windows original's subfolder: the venv, the copy's subfolder, the env ({lines}, {r.stderr})")
    first = r.stderr.splitlines()[0] if r.stderr else ""
    check("tfwsl run:" in first and str(w.copy / "scripts") in first and str(w.venv) in first and "GPU checked 2 hours ago" in first,
          f"the first line on stderr says where it runs: {first!r}")
    r = w.run(["run", "-q", "true"])
    check(r.stderr == "", f"--quiet drops it: {r.stderr!r}")
    r = w.run(["run", "-q", "true"], cwd="/")
    check(r.returncode == 125 and "no migrated project" in r.stderr, f"no project: 125 ({r.returncode}, {r.stderr.strip()})")
    r = w.run(["run", "--project", str(w.original), "-q", "--", PY, "-c", "import os; print(os.getcwd())"], cwd="/")
    check(r.returncode == 0 and r.stdout.strip() == str(w.copy), f"--project names it from anywhere ({r.stdout.strip()})")


def translation(w):
    r = w.run(["run", "--", PY, "-c", "import sys; print('\\n'.join(sys.argv[1:]))", "D:\\data\\flowers\\a.jpg",
               "--out=D:/data/flowers/out", "E:\\raw\\x.csv", "relative\\name", "plain"])
    lines = r.stdout.splitlines()
    check(r.returncode == 0 and lines == [str(w.data / "a.jpg"), "--out=" + str(w.data / "out"), "/mnt/e/raw/x.csv",
                                          "relative\\name", "plain"],
          f"path map and drive letters translated, other words kept: {lines} {r.stderr}")
    check("D:\\data\\flowers\\a.jpg -> " + str(w.data / "a.jpg") in r.stderr, "the run says what it translated")
    mark = w.root / "ran"
    r = w.run(["run", "--", "touch", str(mark), "\\\\fileserver\\share\\x.csv"])
    check(r.returncode == 125 and "\\\\fileserver\\share\\x.csv" in r.stderr and not mark.exists(),
          f"a network path is refused by name, nothing runs ({r.returncode}, {r.stderr.strip()})")


def streams(w):
    script = "import sys, time\nfor i in range(3):\n    print('line', i, flush=True)\n    time.sleep(0.6)\n"
    started = time.monotonic()
    p = subprocess.Popen([w.tfwsl, "run", "-q", "--", PY, "-c", script], cwd=str(w.copy), stdout=subprocess.PIPE,
                         text=True, env=w.env())
    seen = []
    for line in p.stdout:
        seen.append((time.monotonic() - started, line.strip()))
    p.wait()
    check(len(seen) == 3 and seen[-1][0] - seen[0][0] > 1.0,
          f"output streams while the command runs, line by line: {[(round(t, 2), l) for t, l in seen]}")
    r = w.run(["run", "-q", "--", PY, "-c", "import sys; print(sys.stdin.read().upper())"], input="piped in\n")
    check(r.stdout.strip() == "PIPED IN", f"stdin is piped through: {r.stdout!r}")


def ctrl_c(w):
    pid_file = w.root / "grandchild.pid"
    script = ("import subprocess, sys, time\n"
              "child = subprocess.Popen(['sleep', '300'])\n"
              f"open({str(pid_file)!r}, 'w').write(str(child.pid))\n"
              "print('ready', flush=True)\n"
              "time.sleep(300)\n")
    # As a terminal does: the run leads its own foreground group, and Ctrl-C is SIGINT to that group.
    p = subprocess.Popen([w.tfwsl, "run", "-q", "--", PY, "-c", script], cwd=str(w.copy), stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, env=w.env(), start_new_session=True)
    ready = p.stdout.readline().strip()
    os.killpg(p.pid, signal.SIGINT)
    try:
        code = p.wait(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        code = None
    grandchild = int(pid_file.read_text()) if pid_file.exists() else None
    time.sleep(0.3)
    left = []
    for entry in pathlib.Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            fields = stat.rsplit(")", 1)[1].split()
            if int(fields[2]) == p.pid and fields[0] != "Z":  # field 5: the process group
                left.append(entry.name)
    check(ready == "ready" and code == 130, f"Ctrl-C: the command's own 130 comes back (got {code})")
    check(grandchild is not None and not left, f"Ctrl-C reached what the command started: nothing left ({left})")


def shell(w):
    r = w.run(["shell", "-q"], input="echo \"$VIRTUAL_ENV\"; pwd; exit 4\n")
    lines = r.stdout.splitlines()
    check(r.returncode == 4 and lines[:2] == [str(w.venv), str(w.copy)],
          f"tfwsl shell: the venv active in the copy, the shell's status ({r.returncode}, {lines})")


def where(w, schemas):
    r = w.run(["run", "--where", "--json"])
    doc = json.loads(r.stdout)
    check(r.returncode == 0 and doc["python"]["interpreter"] == str(w.venv / "bin" / "python") and doc["here"],
          "--where --json names the interpreter an editor asks for")
    if schemas:
        problems = ss.problems(schemas, "run-where", doc)
        check(not problems, f"--where --json matches its schema: {problems}")
    r = w.run(["run", "--json", "true"])
    check(r.returncode == 125, "--json without --where is refused (a command's output is not tfwsl's)")


def vscode(w, agent):
    vs = w.copy / ".vscode"
    code_log = w.root / "code-args"
    bin_dir = w.root / "bin"
    bin_dir.mkdir(exist_ok=True)
    # VS Code cannot exist here: a `code` that records how it was asked to open what.
    (bin_dir / "code").write_text(f"#!/bin/sh\nprintf '%s\\n' \"$@\" > {code_log}\n")
    (bin_dir / "code").chmod(0o755)
    env = dict(w.env(), PATH=f"{bin_dir}:{os.environ['PATH']}")

    def code(*extra):
        return subprocess.run([w.tfwsl, "code", "--agent", agent, *extra], cwd=str(w.original), capture_output=True,
                              text=True, timeout=60, env=env)

    r = code("--dry-run")
    check(r.returncode == 0 and not vs.exists() and "python.defaultInterpreterPath" in r.stdout,
          f"tfwsl code --dry-run says what it would merge and writes nothing ({r.returncode}, {r.stdout!r})")
    r = code("--yes")
    settings = json.loads((vs / "settings.json").read_text()) if (vs / "settings.json").exists() else {}
    launch = json.loads((vs / "launch.json").read_text()) if (vs / "launch.json").exists() else {}
    ours = [c for c in launch.get("configurations", []) if c.get("name", "").startswith("tfwsl: ")]
    check(r.returncode == 0 and settings.get("python.defaultInterpreterPath") == str(w.venv / "bin" / "python")
          and settings.get("terminal.integrated.env.linux") == {"TF_USE_LEGACY_KERAS": "1"}
          and len(ours) == 1 and ours[0]["python"] == str(w.venv / "bin" / "python") and ours[0]["type"] == "debugpy",
          f"tfwsl code writes the interpreter and a debug configuration into the copy's .vscode ({r.returncode}, {r.stderr!r})")
    check(code_log.exists() and code_log.read_text().split() == [str(w.copy)], "... then opens VS Code there")
    r = code("--yes", "--no-open")
    check(r.returncode == 0 and r.stdout.count("keep") == 2, f"a second run changes nothing: {r.stdout!r}")

    (vs / "settings.json").write_text(json.dumps({"editor.fontSize": 14, "python.defaultInterpreterPath": "/usr/bin/python3"}))
    (vs / "launch.json").write_text(json.dumps({"version": "0.2.0", "configurations": [{"name": "mine", "type": "debugpy"}]}))
    r = code("--yes", "--no-open")
    settings = json.loads((vs / "settings.json").read_text())
    launch = json.loads((vs / "launch.json").read_text())
    check(r.returncode == 0 and settings["editor.fontSize"] == 14 and settings["python.defaultInterpreterPath"] == "/usr/bin/python3"
          and "yours" in r.stdout and [c["name"] for c in launch["configurations"]][0] == "mine"
          and len(launch["configurations"]) == 2,
          f"the user's keys and configurations are kept, their interpreter too (said): {r.stdout!r}")
    commented = '{\n  // my font\n  "editor.fontSize": 14\n}\n'
    (vs / "settings.json").write_text(commented)
    r = code("--yes", "--no-open")
    check(r.returncode == 2 and "comments" in r.stderr and "python.defaultInterpreterPath" in r.stderr
          and (vs / "settings.json").read_text() == commented,
          f"a settings.json with comments (JSONC) is left as it is, with what to add by hand ({r.stderr!r})")
    shutil.rmtree(vs)
    elsewhere = w.root / "elsewhere"
    elsewhere.mkdir()
    vs.symlink_to(elsewhere)
    r = code("--yes", "--no-open")
    check(r.returncode == 2 and not any(elsewhere.iterdir()),
          f"a .vscode that is a link is written through by nothing ({r.returncode}, {r.stderr.strip()!r})")
    vs.unlink()


def notebook(w):
    """tfwsl notebook: the plan for a venv without ipykernel and JupyterLab; the kernel registered by a
    real ipykernel (Debian's, in a venv that sees the system's packages) and listed by Jupyter's own
    `kernelspec list`; JupyterLab started (a stand-in: JupyterLab is not in Debian 12's archive) on
    loopback with the token the printed URL carries."""
    debian_python = "/usr/bin/python3"
    if subprocess.run([debian_python, "-c", "import ipykernel, jupyter_client"], capture_output=True).returncode:
        check(False, "Debian's python3-ipykernel is installed (scripts/install-deps.sh)")
        return
    home = w.root / "home"
    home.mkdir()
    env = dict(w.env(), HOME=str(home), XDG_DATA_HOME="", JUPYTER_DATA_DIR="")
    env.pop("XDG_DATA_HOME")
    env.pop("JUPYTER_DATA_DIR")

    def nb(*extra):
        return subprocess.run([w.tfwsl, "notebook", *extra], cwd=str(w.copy), capture_output=True, text=True,
                              timeout=120, env=env)

    r = nb("--dry-run")
    check(r.returncode == 0 and "install  ipykernel jupyterlab into" in r.stdout and not (home / ".local").exists(),
          f"the plan says it installs what the venv lacks, and --dry-run changes nothing ({r.stdout!r} {r.stderr!r})")
    nbvenv = w.root / "nbvenv"
    subprocess.run([debian_python, "-m", "venv", "--system-site-packages", "--without-pip", str(nbvenv)], check=True)
    w.write_record(venv=str(nbvenv))
    try:
        r = nb("--no-start", "--yes")
        listed = subprocess.run([debian_python, "-m", "jupyter_client.kernelspecapp", "list", "--json"],
                                capture_output=True, text=True, env=env)
        specs = json.loads(listed.stdout or "{}").get("kernelspecs", {})
        name = "tfwsl-copy-tf-2.15-cuda-12.2"
        spec = specs.get(name, {}).get("spec", {})
        check(r.returncode == 0 and spec.get("argv", [""])[0] == str(nbvenv / "bin" / "python")
              and "{connection_file}" in spec.get("argv", []) and spec.get("language") == "python"
              and spec.get("env") == {"TF_USE_LEGACY_KERAS": "1"} and "(tfwsl, tf-2.15-cuda-12.2)" in spec.get("display_name", ""),
              f"the kernel is where Jupyter looks, with the venv's python and the environment "
              f"({r.returncode}, {r.stderr[-300:]!r}, {list(specs)})")
        # JupyterLab's stand-in: a jupyterlab module the probe finds and a `jupyter` that says how it was started.
        site = next(nbvenv.glob("lib/python3*/site-packages"))
        (site / "jupyterlab").mkdir()
        (site / "jupyterlab" / "__init__.py").write_text("")
        started = w.root / "lab-started"
        (nbvenv / "bin" / "jupyter").write_text(
            f"#!/bin/sh\n{{ printf '%s\\n' \"$@\"; echo \"token=$JUPYTER_TOKEN\"; pwd; }} > {started}\nexit 7\n")
        (nbvenv / "bin" / "jupyter").chmod(0o755)
        r = nb("--yes", "--port", "8899")
        url = [l for l in r.stdout.splitlines() if l.startswith("JupyterLab: http://localhost:8899/lab?token=")]
        lines = started.read_text().splitlines() if started.exists() else []
        token = url[0].split("token=")[1].split()[0] if url else None
        check(r.returncode == 7 and url and lines[:2] == ["lab", "--no-browser"] and "--ServerApp.ip=127.0.0.1" in lines
              and "--ServerApp.port=8899" in lines and f"token={token}" in lines and len(token or "") == 32,
              f"JupyterLab starts on loopback with the URL's token, its status comes back ({r.returncode}, {lines})")
    finally:
        w.write_record()


def overhead(w, rounds=15):
    """tfwsl run's own work (finding the project, reading the record, the health check, the venv's
    activation) against a plain exec of the same command, in turn, same run: the median difference."""
    ours, plain = [], []
    for _ in range(rounds):
        for times, argv in ((ours, [w.tfwsl, "run", "-q", "true"]), (plain, ["true"])):
            started = time.perf_counter()
            subprocess.run(argv, cwd=str(w.copy), env=w.env(), check=True)
            times.append(time.perf_counter() - started)
    ours.sort()
    plain.sort()
    added = (ours[rounds // 2] - plain[rounds // 2]) * 1000
    print(f"bench tfwsl run -q true: median {ours[rounds // 2] * 1000:.1f} ms, true: {plain[rounds // 2] * 1000:.1f} ms, "
          f"tfwsl's own work {added:.1f} ms ({rounds} runs each, in turn)")
    check(added <= 150, f"tfwsl run adds at most 150 ms to a plain exec natively ({added:.1f} ms)")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tfwsl", required=True)
    ap.add_argument("--schemas", required=True)
    ap.add_argument("--agent", required=True)
    args = ap.parse_args()
    schemas = ss.load_schemas(args.schemas) if ss.jsonschema else None
    root = tempfile.mkdtemp(prefix="tfwsl-run-")
    try:
        w = World(args.tfwsl, root)
        run = lambda words, input=None: w.run(["run", *words], input=input)  # noqa: E731
        run_cases.exit_statuses(run, check)
        for test in (environment_and_place, translation):
            test(w)
        run_cases.unhealthy_and_dry_run(run, w, check)
        for test in (streams, ctrl_c, shell):
            test(w)
        where(w, schemas)
        vscode(w, args.agent)
        notebook(w)
        overhead(w)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    if FAILURES:
        print(f"{len(FAILURES)} failed")
        return 1
    print("all passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
