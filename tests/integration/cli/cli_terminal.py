#!/usr/bin/env python3
"""tfwsl on a pseudo-terminal and on pipes: the colour rules and the doctor's status line as a user
sees them (common/cli/color_choice.hpp, common/cli/status_line.hpp), and explain's paste hint.

Runs the native tfwsl doctor against the real tfwsl-agent (--agent), on a pty from Python's pty
module, so that isatty() is true as in a terminal.
"""
import argparse
import os
import pty
import select
import subprocess
import sys
import tempfile
import time

STATUS = b"tfwsl doctor: "
LIVE = b"\r\x1b[K" + STATUS
COLOUR = (b"\x1b[32m", b"\x1b[31m", b"\x1b[33m", b"\x1b[2m")
failures = []


def expect(condition, what, output=b""):
    print(("ok: " if condition else "FAILED: ") + what)
    if not condition:
        failures.append(what)
        print(output.decode("utf-8", "replace")[-3000:])


def environment(extra):
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "TFWSL_AGENT", "SPDLOG_LEVEL")}
    env["TERM"] = "xterm-256color"
    env.update(extra)
    return env


def on_pty(argv, extra_env=None, send=None, timeout=300):
    """Runs argv with stdin, stdout and stderr on one pty; returns (exit code, everything written)."""
    master, slave = pty.openpty()
    child = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave, env=environment(extra_env or {}),
                             close_fds=True)
    os.close(slave)
    output = b""
    deadline = time.monotonic() + timeout
    sent = False
    while time.monotonic() < deadline:
        ready, _, _ = select.select([master], [], [], 0.2)
        if ready:
            try:
                chunk = os.read(master, 65536)
            except OSError:  # EIO: the child has closed the pty
                break
            if not chunk:
                break
            output += chunk
        if send is not None and not sent and send[0] in output:
            os.write(master, send[1])
            sent = True
        if child.poll() is not None and not ready:
            break
    os.close(master)
    try:
        code = child.wait(timeout=10)
    except subprocess.TimeoutExpired:
        child.kill()
        code = child.wait()
    return code, output


def on_pipes(argv, extra_env=None, timeout=300):
    p = subprocess.run(argv, capture_output=True, env=environment(extra_env or {}), timeout=timeout, stdin=subprocess.DEVNULL)
    return p.returncode, p.stdout, p.stderr


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tfwsl", required=True)
    ap.add_argument("--agent", required=True)
    a = ap.parse_args()
    doctor = [a.tfwsl, "doctor", "--agent", a.agent]

    _, out = on_pty(doctor)
    expect(LIVE in out, "on a terminal the doctor shows a live status line (\\r, erase, text)", out)
    expect(any(c in out for c in COLOUR), "and the report is coloured", out)
    expect(b"Profile: " in out and out.rfind(b"\r\x1b[K") < out.find(b"Profile: "),
           "the status line is erased before the report (its header first)", out)

    _, out = on_pty(doctor + ["--json"])
    expect(STATUS not in out and b"\x1b" not in out, "--json: no status line, no escape sequences", out)
    _, out = on_pty(doctor + ["--quiet"])
    expect(STATUS not in out, "--quiet: no status line", out)
    _, out = on_pty([a.tfwsl, "--log-level", "info"] + doctor[1:])
    expect(LIVE not in out, "--log-level info: log lines on stderr, so no line rewritten in place", out)
    _, out = on_pty(doctor, {"SPDLOG_LEVEL": "debug"})
    expect(LIVE not in out, "SPDLOG_LEVEL=debug: the same", out)

    _, out = on_pty(doctor, {"NO_COLOR": "1"})
    expect(not any(c in out for c in COLOUR), "NO_COLOR=1: no colour", out)
    expect(LIVE in out, "NO_COLOR=1 keeps the live status line (it is not colour)", out)
    _, out = on_pty(doctor, {"NO_COLOR": ""})
    expect(any(c in out for c in COLOUR), "an empty NO_COLOR is no NO_COLOR", out)
    _, out = on_pty(doctor, {"TERM": "dumb"})
    expect(b"\x1b" not in out, "TERM=dumb: no colour and no cursor movement", out)
    _, out = on_pty(doctor + ["--color", "never"])
    expect(not any(c in out for c in COLOUR), "--color never on a terminal: no colour", out)

    _, stdout, stderr = on_pipes(doctor)
    expect(b"\x1b" not in stdout and b"\x1b" not in stderr, "pipes: no escape sequences at all", stdout + stderr)
    _, stdout, _ = on_pipes(doctor + ["--color", "always"], {"NO_COLOR": "1"})
    expect(any(c in stdout for c in COLOUR), "--color always colours a pipe, NO_COLOR or not", stdout)

    # An agent that takes 6 s to start: on a pipe, a plain line after 5 s, no \r, no escapes.
    with tempfile.TemporaryDirectory() as d:
        slow = os.path.join(d, "tfwsl-agent")
        with open(slow, "w") as f:
            f.write(f"#!/bin/sh\nsleep 6\nexec '{a.agent}' \"$@\"\n")
        os.chmod(slow, 0o755)
        _, stdout, stderr = on_pipes([a.tfwsl, "doctor", "--agent", slow])
        expect(b"tfwsl doctor: waiting for the agent (TensorFlow probe) (5 s)\n" in stderr,
               "stderr not a terminal: a plain status line every 5 s", stderr)
        expect(b"\r" not in stderr and b"\x1b" not in stderr, "plain lines carry no \\r or escapes", stderr)
        _, stdout, stderr = on_pipes([a.tfwsl, "doctor", "--json", "--agent", slow])
        expect(STATUS not in stderr, "--json on a pipe: no status line either", stderr)

    code, out = on_pty([a.tfwsl, "explain", "-"], send=(b"to end it.", b"tensorflow==2.15.0\n\x04"), timeout=60)
    expect(b"Paste the text, then press Ctrl-D on a new line to end it." in out, "explain - on a terminal says how to end the paste", out)
    expect(b"kind: requirements" in out, "and explains what was pasted after the end key", out)
    paste = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "corpus", "explain", "wsl-install-01.txt")
    _, out = on_pty([a.tfwsl, "explain", paste])
    expect(any(c in out for c in COLOUR), "explain on a terminal is coloured like doctor", out)
    _, out = on_pty([a.tfwsl, "explain", paste], {"NO_COLOR": "1"})
    expect(b"\x1b" not in out, "explain with NO_COLOR=1: no colour", out)
    _, stdout, stderr = on_pipes([a.tfwsl, "explain", "-"])
    expect(b"Paste the text" not in stderr, "explain - from a pipe prints no hint", stderr)

    if failures:
        print(f"{len(failures)} failed")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
