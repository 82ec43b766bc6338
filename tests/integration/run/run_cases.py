"""The checks of `tfwsl run` that do not depend on how it reaches the distro, for run_native.py (the
command runs here) and tests/windows/run_session.py (tfwsl.exe under Wine, through the wsl.exe
stand-in): `run(words, input=None)` runs `tfwsl run WORDS` (with the project named as the test
needs) and returns a CompletedProcess (text); `check(ok, what)` records a verdict."""
import time

EXIT_CASES = ((0, ["true"]), (3, ["python", "-c", "import sys; sys.exit(3)"]),
              (130, ["python", "-c", "import os, signal; os.kill(os.getpid(), signal.SIGINT); import time; time.sleep(5)"]),
              (137, ["sh", "-c", "kill -KILL $$"]), (127, ["no-such-command-tfwsl"]), (126, ["./notexec.sh"]))


def exit_statuses(run, check):
    """The command's own status (128+N for signal N), and tfwsl's own 127, 126 and 125."""
    for code, command in EXIT_CASES:
        r = run(["-q", "--", *command])
        check(r.returncode == code, f"exit status {code}: {command} -> {r.returncode} {r.stderr[-300:]!r}")
    r = run(["--no-such-option", "true"])
    check(r.returncode == 125 and "--no-such-option" in r.stderr, f"a usage error of run exits 125 ({r.returncode})")


def unhealthy_and_dry_run(run, project, check):
    """A failed GPU verdict and a venv whose python is gone stop the run before the command starts;
    --dry-run runs nothing and shows the translated command."""
    mark = project.root / "ran"
    project.write_record(gpu={"ok": False, "summary": "no GPU: libcuda.so.1 not found", "checked_at": int(time.time())})
    r = run(["touch", str(mark)])
    check(r.returncode == 125 and "GPU check" in r.stderr and "libcuda" in r.stderr and not mark.exists(),
          f"a failed GPU check stops the run before it starts ({r.returncode}, {r.stderr[-300:]!r})")
    project.write_record()
    moved = project.root / "venv-moved"
    project.venv.rename(moved)
    try:
        r = run(["touch", str(mark)])
    finally:
        moved.rename(project.venv)
    check(r.returncode == 125 and "bin/python does not run" in r.stderr and not mark.exists(),
          f"a venv whose python is gone stops the run ({r.returncode}, {r.stderr[-300:]!r})")
    r = run(["--dry-run", "touch", str(mark), "C:\\x"])
    check(r.returncode == 0 and not mark.exists() and "touch" in r.stdout and "/mnt/c/x" in r.stdout,
          f"--dry-run prints what would run and runs nothing: {r.stdout.strip()!r}")
