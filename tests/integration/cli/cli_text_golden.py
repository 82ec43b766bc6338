#!/usr/bin/env python3
"""Every command's text output at 80 columns (not a terminal: tfwsl fits text to 80) against golden
files in tests/golden/<command>/ (explain, profile, provision, migrate, wslconfig, data, agent,
usage), run by the native build on real files.

Each case's stdout (NAME.txt) and stderr (NAME.err.txt, when it says anything) must match its golden
file, and every line must keep to 80 columns unless it holds a single word or argument (a path, a
URL, then perhaps the shell's continuation). Each case runs again on a pty 1000 columns wide, where
nothing wraps: every command the 80-column text continues over lines (" \\", " `", " ^" at a line's
end), joined back with one space, is text of the wide output, so no argument was split. The wide
output also gives the count of lines over 80 columns before fitting (printed, with the count after).
With --update the golden files are written from the real output (review them with git diff).

Usage: cli_text_golden.py --tfwsl BIN --golden DIR --fixtures DIR [--update]. Exit 0 ok, 1 failed,
77 when the golden files have not been written yet.
"""
import argparse
import fcntl
import os
import pty
import select
import shlex
import shutil
import struct
import subprocess
import sys
import termios

WIDTH = 80
CONTINUATIONS = (" \\", " `", " ^")
# A fixed work folder: the outputs name its paths, which the golden files hold.
WORK = "/tmp/tfwsl-text-golden"

TEAM_BASE = """name: team-base
extends: builtin:tf-2.15-cuda-12.2
wsl: { memory: 16GB, swap: 4GB }
gpu: { driver: "546.80" }
packages:
  apt: [build-essential, libgl1, libglib2.0-0, ffmpeg, graphviz, libhdf5-dev, pkg-config, git-lfs]
  pip: [pandas==2.1.4, scikit-learn>=1.3, "opencv-python-headless==4.8.1.78", matplotlib, tensorflow-datasets]
"""
PROJECT = "extends: ../team-base/base.yaml\nname: flowers-classifier-for-the-whole-lab\n"
BAD = ('name: bad\ncdua: { toolkit: "12.2" }\nwsl: { memory: 16 GB }\ntensorflow: { version: "2.15.*" }\n'
       'python: { venv: "relative/venv/path/that/is/not/absolute" }\n')
WSLCONFIG = ("[wsl2]\nmemory=64GB\nprocessors=8\nswap=0\nlocalhostForwarding=true\n"
             "kernelCommandLine = cgroup_no_v1=all systemd.unified_cgroup_hierarchy=1 sysctl.vm.swappiness=10\n"
             "[experimental]\nautoMemoryReclaim=gradual\nsparseVhd=true\n")


def fixture_text(fixtures, name):
    with open(os.path.join(fixtures, name), encoding="utf-8") as f:
        text = f.read()
    return text.split("\n---\n", 1)[1]


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)


def make_world():
    """The files the cases read, under WORK; the environment they run in."""
    shutil.rmtree(WORK, ignore_errors=True)
    write(os.path.join(WORK, "team-base", "base.yaml"), TEAM_BASE)
    write(os.path.join(WORK, "project", "tfwsl.yaml"), PROJECT)
    write(os.path.join(WORK, "bad.yaml"), BAD)
    write(os.path.join(WORK, "home", ".wslconfig"), WSLCONFIG)
    for stamp in ("20261201-101010", "20261202-101010"):  # two earlier changes: the first backup stays
        write(os.path.join(WORK, "home", ".wslconfig.tfwsl-backup-" + stamp), WSLCONFIG)
    flowers = os.path.join(WORK, "flowers")
    write(os.path.join(flowers, "requirements.txt"),
          "tensorflow-gpu==2.10.0\ntensorflow-directml-plugin\npandas>=1.5\nkeras-preprocessing==1.1.2\n")
    write(os.path.join(flowers, "model.py"),
          "import tensorflow as tf\nfrom tensorflow.keras.preprocessing.image import ImageDataGenerator\n")
    write(os.path.join(flowers, "config.yaml"), "data_dir: \"D:\\\\data\\\\flowers\"\n")
    write(os.path.join(WORK, "drives", "d", "data", "flowers", "a.jpg"), "x")
    os.makedirs(os.path.join(WORK, "drives", "c"), exist_ok=True)
    env = dict(os.environ, HOME=os.path.join(WORK, "home"), TFWSL_TEST_DRIVE_ROOT=os.path.join(WORK, "drives"),
               TFWSL_TEST_HOST_RAM="32GB", NO_COLOR="1", LC_ALL="C.UTF-8",
               TFWSL_AGENT_PATH=os.path.join(WORK, "an", "agent", "that", "was", "never", "installed", "tfwsl-agent"))
    env.pop("COLUMNS", None)
    return env


def cases(fixtures):
    """(golden folder, name, argv after tfwsl, stdin text, working folder)."""
    project = os.path.join(WORK, "project")
    return [
        ("explain", "tf-gpu-log-05", ["explain", "-"], fixture_text(fixtures, "tf-gpu-log-05.txt"), WORK),
        ("explain", "libcuda-03", ["explain", "-"], fixture_text(fixtures, "libcuda-03.txt"), WORK),
        ("explain", "wsl-status-03", ["explain", "-"], fixture_text(fixtures, "wsl-status-03.txt"), WORK),
        ("profile", "show", ["profile", "show"], None, project),
        ("profile", "validate", ["profile", "validate", "bad.yaml"], None, WORK),
        ("profile", "diff-without-agent", ["profile", "diff", "--agent", os.path.join(WORK, "no-agent")], None, project),
        ("provision", "dry-run", ["provision", "--dry-run", "--profile", "tfwsl.yaml"], None, project),
        ("migrate", "dry-run", ["migrate", "flowers", "--dry-run", "--force"], None, WORK),
        ("wslconfig", "show", ["wslconfig", "show", "--file", os.path.join(WORK, "home", ".wslconfig")], None, WORK),
        ("wslconfig", "restore-list", ["wslconfig", "restore", "--file", os.path.join(WORK, "home", ".wslconfig")], None,
         WORK),
        ("data", "push-missing-source", ["data", "push", os.path.join(WORK, "no such folder", "imagenet-2012-train"),
                                         "--agent", os.path.join(WORK, "no-agent")], None, WORK),
        ("agent", "status", ["agent", "status"], None, WORK),
        ("uninstall", "dry-run", ["uninstall", "--dry-run", "--wslconfig", os.path.join(WORK, "home", ".wslconfig"),
                                  "--state-dir", os.path.join(WORK, "no-state")], None, WORK),
        ("usage", "unknown-command", ["frobnicate"], None, WORK),
    ]


def run_piped(tfwsl, argv, stdin, cwd, env):
    p = subprocess.run([tfwsl] + argv, input=(stdin or "").encode(), capture_output=True, cwd=cwd, env=env, timeout=120)
    return p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def run_wide(tfwsl, argv, stdin, cwd, env):
    """stdout and stderr on one pty of 1000 columns (stdin a pipe): nothing is fitted."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 50, 1000, 0, 0))
    p = subprocess.Popen([tfwsl, "--color", "never"] + argv, stdin=subprocess.PIPE, stdout=slave, stderr=slave,
                         cwd=cwd, env=env)
    os.close(slave)
    p.stdin.write((stdin or "").encode())
    p.stdin.close()
    chunks = []
    while True:
        ready, _, _ = select.select([master], [], [], 120)
        if not ready:
            p.kill()
            break
        try:
            chunk = os.read(master, 65536)
        except OSError:  # EIO: the child has closed the pty
            break
        if not chunk:
            break
        chunks.append(chunk)
    p.wait(timeout=60)
    os.close(master)
    return b"".join(chunks).decode("utf-8", "replace").replace("\r\n", "\n")


def one_argument(body):
    """Whether a line's text (its indent gone) is one word or one argument, then perhaps a continuation."""
    for mark in CONTINUATIONS:
        if body.endswith(mark):
            body = body[: -len(mark)]
            break
    try:
        return len(shlex.split(body)) == 1 or " " not in body
    except ValueError:
        return " " not in body


def layout_problems(what, text, wide):
    problems = []
    lines = text.splitlines()
    for n, line in enumerate(lines, 1):
        if len(line) > WIDTH and not one_argument(line.strip()):
            problems.append(f"{what} line {n} has {len(line)} columns and more than one word: {line}")
    # Each command continued over lines, joined back, is text of the unfitted output.
    n = 0
    while n < len(lines):
        if not lines[n].endswith(CONTINUATIONS):
            n += 1
            continue
        joined = lines[n][:-2]
        while lines[n].endswith(CONTINUATIONS) and n + 1 < len(lines):
            n += 1
            joined += " " + lines[n].strip()
            if lines[n].endswith(CONTINUATIONS):
                joined = joined[:-2]
        if joined.strip() not in wide:
            problems.append(f"{what}: a command joined back over its continuations is not in the unwrapped output: {joined}")
        n += 1
    return problems


def over(text):
    return sum(1 for line in text.splitlines() if len(line) > WIDTH), len(text.splitlines())


def compare(path, text, update, what):
    if update:
        if text:
            write(path, text)
        elif os.path.exists(path):
            os.remove(path)
        return []
    expected = None
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            expected = f.read()
    if (expected or "") != text:
        return [f"{what} differs from {path}:\n{text}"]
    return []


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tfwsl", required=True)
    ap.add_argument("--golden", required=True)
    ap.add_argument("--fixtures", required=True)
    ap.add_argument("--update", action="store_true")
    a = ap.parse_args()
    folders = {c[0] for c in cases(a.fixtures)} if os.path.isdir(a.fixtures) else set()
    if not a.update and not all(os.path.isdir(os.path.join(a.golden, f)) for f in folders):
        print(f"SKIPPED: no golden files in {a.golden}/<command>; write them with --update and review them")
        return 77
    # One run at a time on this machine (two checkouts' tests would share WORK): held until exit.
    lock = open(WORK + ".lock", "w")
    fcntl.flock(lock, fcntl.LOCK_EX)
    env = make_world()
    problems = []
    for folder, name, argv, stdin, cwd in cases(a.fixtures):
        what = "tfwsl " + " ".join(argv)
        out, err = run_piped(a.tfwsl, argv, stdin, cwd, env)
        wide = run_wide(a.tfwsl, argv, stdin, cwd, env)
        before, after = over(wide), over(out + err)
        print(f"{folder}/{name}: lines over {WIDTH} columns: {before[0]} of {before[1]} unfitted, "
              f"{after[0]} of {after[1]} at {WIDTH} columns")
        problems += layout_problems(what, out, wide) + layout_problems(what + " (stderr)", err, wide)
        problems += compare(os.path.join(a.golden, folder, name + ".txt"), out, a.update, what)
        problems += compare(os.path.join(a.golden, folder, name + ".err.txt"), err, a.update, what + " (stderr)")
    for p in problems:
        print("FAILED:", p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
