#!/usr/bin/env python3
"""`tfwsl.exe run` and `tfwsl.exe shell` under Wine, through the wsl.exe stand-in and its relay, which
runs the Linux side for real (tests/wsl_standin/README.md): a project's Windows original (a Z: folder)
and its WSL copy (a Linux folder), each with migrate's record (.tfwsl/wsl-copy.json), and a real venv.

Shows, as on Windows: the command's own exit status through wsl.exe (0, 3, 130, 137) and tfwsl's own
125, 126 and 127; output streaming line by line while the command runs; stdin piped through; Windows
paths translated from the path map, the project and drive letters, a network path refused by name
with nothing run; Ctrl-C, delivered as a console does to tfwsl.exe and wsl.exe, reaching the command's
process group and leaving no process; an unhealthy environment stopping the run; the argv handed to wsl.exe (-d DISTRO
--cd FOLDER --exec ...); --where --json against its schema."""
import argparse
import json
import os
import pathlib
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "integration", "schema"))
import schema_support as ss  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "integration", "run"))
from migrated_project import MigratedProject  # noqa: E402
import run_cases  # noqa: E402
from wsl_session import WslSession  # noqa: E402

FAILURES = []


def check(ok, what):
    print(("ok    " if ok else "FAIL  ") + what)
    if not ok:
        FAILURES.append(what)


def windows(path):
    return "Z:" + str(path).replace("/", "\\")


def place_and_translation(s, p, at):
    r = s.run(["run", *at, "--", "python", "-c", "import os, sys; print(os.getcwd()); print(sys.prefix); "
               "print(os.environ['TF_USE_LEGACY_KERAS']); print('\\n'.join(sys.argv[1:]))",
               "D:\\data\\flowers\\a.jpg", windows(p.original / "scripts" / "cfg.yaml"), "E:\\raw\\x.csv", "plain"])
    lines = r.stdout.splitlines()
    check(r.returncode == 0 and lines == [str(p.copy), str(p.venv), "1", str(p.data / "a.jpg"),
                                          str(p.copy / "scripts" / "cfg.yaml"), "/mnt/e/raw/x.csv", "plain"],
          f"in the copy, in the venv, the env set, paths translated: {lines} {r.stderr[-400:]!r}")
    check("tfwsl run: in Ubuntu-22.04 " + str(p.copy) in r.stderr and "D:\\data\\flowers\\a.jpg -> " in r.stderr,
          f"the first line says where, and what was translated: {r.stderr[:400]!r}")
    relayed = [line for line in s.standin_log().splitlines() if "--exec" in line and "tfwsl-run" in line]
    check(bool(relayed) and "-d Ubuntu-22.04" in relayed[-1] and "--cd " + str(p.copy) in relayed[-1],
          f"wsl.exe is asked for the distro and the copy's folder: {relayed[-1:]}")
    # Without --project: the project of tfwsl.exe's current folder, a subfolder of the Windows original.
    here = os.getcwd()
    os.chdir(p.original / "scripts")
    try:
        r = s.run(["run", "-q", "--", "python", "-c", "import os; print(os.getcwd())"])
    finally:
        os.chdir(here)
    check(r.returncode == 0 and r.stdout.strip() == str(p.copy / "scripts"),
          f"from the Windows original's subfolder: the copy's subfolder ({r.stdout.strip()!r}, {r.stderr[-300:]!r})")
    mark = p.root / "ran"
    r = s.run(["run", *at, "--", "touch", str(mark), "\\\\fileserver\\share\\x"])
    check(r.returncode == 125 and "\\\\fileserver\\share\\x" in r.stderr and not mark.exists(),
          f"a network path is refused by name, nothing runs ({r.returncode}, {r.stderr[-300:]!r})")


def streams(s, p, at):
    script = "import time\nfor i in range(3):\n    print('line', i, flush=True)\n    time.sleep(0.8)\n"
    started = time.monotonic()
    proc = subprocess.Popen(s.command(["run", *at, "-q", "--", "python", "-c", script]), stdout=subprocess.PIPE, text=True)
    seen = [(time.monotonic() - started, line.strip()) for line in proc.stdout]
    proc.wait()
    check(len(seen) == 3 and seen[-1][0] - seen[0][0] > 1.2,
          f"output streams through wsl.exe line by line: {[(round(t, 2), l) for t, l in seen]}")
    r = s.run(["run", *at, "-q", "--", "python", "-c", "import sys; print(sys.stdin.read().upper())"], input="piped in\n")
    check(r.stdout.strip() == "PIPED IN", f"stdin is piped through: {r.stdout!r}")
    r = s.run(["shell", *at, "-q"], input="echo \"$VIRTUAL_ENV\"; exit 4\n")
    check(r.returncode == 4 and r.stdout.splitlines()[:1] == [str(p.venv)],
          f"tfwsl shell: the venv active, the shell's status ({r.returncode}, {r.stdout!r})")


def standin_processes(s):
    """The Linux pids of the wsl.exe stand-ins of this session's world (Wine runs each as a process)."""
    pids = []
    for entry in pathlib.Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            except OSError:
                continue
            if "wsl.exe" in cmdline and s.work.name in cmdline:
                pids.append(int(entry.name))
    return pids


def ctrl_c(s, p, at):
    """Ctrl-C as a Windows console delivers it: to every process attached, tfwsl.exe (through the session
    tool, which passes SIGINT to its Wine process) and wsl.exe (the stand-in's Wine process), which passes
    it to the Linux side: the command's group gets SIGINT, nothing is left, the status is 130."""
    pid_file = p.root / "grandchild.pid"
    script = ("import subprocess, time\n"
              "child = subprocess.Popen(['sleep', '300'])\n"
              f"open({str(pid_file)!r}, 'w').write(str(child.pid))\n"
              "print('ready', flush=True)\n"
              "time.sleep(300)\n")
    proc = s.start(["run", *at, "-q", "--", "python", "-c", script], stdout=subprocess.PIPE, text=True)
    ready = proc.stdout.readline().strip()
    standins = standin_processes(s)
    WslSession.interrupt(proc)
    for pid in standins:
        os.kill(pid, signal.SIGINT)
    try:
        code = proc.wait(timeout=60)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        code = None
    grandchild = int(pid_file.read_text()) if pid_file.exists() else None
    time.sleep(0.5)
    alive = grandchild is not None and pathlib.Path(f"/proc/{grandchild}").exists() and \
        pathlib.Path(f"/proc/{grandchild}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    check(ready == "ready" and bool(standins) and code == 130,
          f"Ctrl-C through wsl.exe: the command's 130 comes back (got {code}, stand-ins {standins})")
    check(grandchild is not None and not alive, f"Ctrl-C reached the command's group: nothing left ({grandchild})")


def where(s, p, at, schemas):
    r = s.run(["run", *at, "--where", "--json"])
    doc = json.loads(r.stdout or "{}")
    check(r.returncode == 0 and doc.get("here") is False and doc.get("launch", [""])[0].lower().endswith("wsl.exe")
          and doc.get("python", {}).get("interpreter") == str(p.venv / "bin" / "python"),
          f"--where --json: through wsl.exe, the interpreter for an editor ({r.stderr[-300:]!r})")
    if schemas:
        problems = ss.problems(schemas, "run-where", doc)
        check(not problems, f"--where --json matches its schema: {problems}")


def overhead(s, at, rounds=9):
    """tfwsl.exe run's own work under Wine against wsl.exe --exec of the same command (the stand-in,
    the same relay), in turn, same run: the median difference is tfwsl.exe's start and its own work."""
    wsl = WslSession(s.tool, s.config, s.scenario, work=s.work, program=s.work / "bin" / "wsl.exe")
    ours, direct = [], []
    for _ in range(rounds):
        for times, session, argv in ((ours, s, ["run", *at, "-q", "true"]),
                                     (direct, wsl, ["-d", "Ubuntu-22.04", "--exec", "true"])):
            started = time.perf_counter()
            r = session.run(argv)
            times.append(time.perf_counter() - started)
            if r.returncode:
                check(False, f"{argv[0]} ran: {r.returncode} {r.stderr[-200:]!r}")
    ours.sort()
    direct.sort()
    added = (ours[rounds // 2] - direct[rounds // 2]) * 1000
    print(f"bench tfwsl.exe run -q true: median {ours[rounds // 2] * 1000:.0f} ms, wsl.exe --exec true: "
          f"{direct[rounds // 2] * 1000:.0f} ms, tfwsl.exe's start and own work {added:.0f} ms ({rounds} runs each, in turn)")
    check(added <= 150, f"tfwsl.exe run adds at most 150 ms to wsl.exe --exec under Wine ({added:.0f} ms)")


def main():
    parser = argparse.ArgumentParser()
    WslSession.add_arguments(parser)
    parser.add_argument("--scenarios", required=True)
    parser.add_argument("--schemas", required=True)
    args = parser.parse_args()
    schemas = ss.load_schemas(args.schemas) if ss.jsonschema else None
    with tempfile.TemporaryDirectory() as work, WslSession.from_args(args, f"{args.scenarios}/healthy") as s:
        p = MigratedProject(os.path.join(work, "p"), windows_path=windows, checked_ago=60)
        at = ["--project", windows(p.original)]
        run = lambda words, input=None: s.run(["run", *at, *words], input=input)  # noqa: E731
        run_cases.exit_statuses(run, check)
        for test in (place_and_translation, streams, ctrl_c):
            test(s, p, at)
        run_cases.unhealthy_and_dry_run(run, p, check)
        where(s, p, at, schemas)
        overhead(s, at)
    if FAILURES:
        print(f"{len(FAILURES)} failed")
        return 1
    print("all passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
