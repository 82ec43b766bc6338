#!/usr/bin/env python3
"""`tfwsl agent start | status | stop` natively with the real tfwsl-agent, in a temporary HOME and
with TFWSL_AGENT_PATH in a temporary folder (nothing outside them is written): nothing installed by
--dry-run nor without consent; `start --yes` installs (0755), makes the token file (0600 in a 0700
folder) and starts the agent, which answers /v1/info with the token (401 without, as curl would
send it); status says it answers; a second start leaves it alone; stop ends the process. The install
runs as root, so where TFWSL_AGENT_PATH is a link (to a folder, or to a file of someone else's), or
its folder is one others may write, it is refused and nothing is written through the link (sweep A17:
the old `mv -f "$dst.new" "$dst"` moved the agent into a linked folder). An older agent installed
and running (tfwsl upgraded since): status says it is older, start --yes replaces and restarts it."""
import argparse
import http.client
import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import time

failures = []


def fail(message):
    print("FAILED:", message)
    failures.append(message)


def mode(path):
    return stat.S_IMODE(os.lstat(path).st_mode)


def get_info(port, token):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    headers = {"Host": f"127.0.0.1:{port}"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    c.request("GET", "/v1/info", headers=headers)
    r = c.getresponse()
    return r.status, r.read()


def refused_install_checks(a, d):
    """Links and loose folders where the agent would be installed: refused by name, nothing written."""
    home = os.path.join(d, "home-refused")
    os.makedirs(home)
    folder, victim = os.path.join(d, "linked-folder"), os.path.join(d, "victim")
    os.makedirs(folder)
    with open(victim, "w") as f:
        f.write("precious")
    loose = os.path.join(d, "loose")
    os.makedirs(loose)
    os.chmod(loose, 0o777)
    cases = [("a link to a folder", os.path.join(d, "agent-link-folder"), folder),
             ("a link to a file", os.path.join(d, "agent-link-file"), victim),
             ("a folder others may write", os.path.join(loose, "tfwsl-agent"), None)]
    for what, path, target in cases:
        if target:
            os.symlink(target, path)
        env = dict(os.environ, HOME=home, TFWSL_AGENT_PATH=path)
        r = subprocess.run([a.tfwsl, "agent", "start", "--yes", "--agent", a.agent], capture_output=True,
                           text=True, env=env, stdin=subprocess.DEVNULL, timeout=120)
        named = os.path.dirname(path) if target is None else path
        if r.returncode == 0 or named not in r.stderr:
            fail(f"install at {what}: exit {r.returncode}, the refusal does not name {named}: {r.stderr!r}")
        if os.listdir(folder) or open(victim).read() != "precious" or os.listdir(loose):
            fail(f"install at {what} wrote through it: {os.listdir(folder)}, {os.listdir(loose)}")


# A tfwsl-agent of an older release, as a tfwsl upgraded since left it: it answers --version, and
# `serve` prints its handshake line and stays (its command line still reads `tfwsl-agent ... serve`).
OLD_AGENT = """#!/bin/sh
if [ "$1" = --version ]; then echo 'tfwsl-agent 0.0.9 (1234567)'; exit 0; fi
port=$(echo "$3" | sed 's/.*://')
[ "$port" = 0 ] && port=1
printf '{"agent":"0.0.9","api":2,"pid":%d,"port":%s}\\n' $$ "$port"
while :; do sleep 1; done
"""


def alive(pid):
    """A live process (a zombie is not: it has ended, its parent has not reaped it yet)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(") ", 1)[1][0] != "Z"
    except OSError:
        return False


def start_old_agent(lib, state):
    """The older agent installed and running as `tfwsl agent start` of that release left it."""
    os.makedirs(os.path.dirname(lib), exist_ok=True)
    with open(lib, "w") as f:
        f.write(OLD_AGENT)
    os.chmod(lib, 0o755)
    os.makedirs(state, mode=0o700)
    with open(os.path.join(state, "agent.token"), "w") as f:
        f.write("ab" * 32 + "\n")
    os.chmod(os.path.join(state, "agent.token"), 0o600)
    # In the background of a shell that exits, as the start script leaves it: init is its parent and
    # reaps it when it stops (a child of this script would stay a zombie that `kill -0` still finds).
    hello = os.path.join(state, "agent.json")
    open(hello, "w").close()  # the background shell's redirection may come after the loop's first look
    subprocess.run(["sh", "-c", 'setsid "$@" > "$0" < /dev/null 2>/dev/null &', hello, lib, "serve", "--listen",
                    "127.0.0.1:0", "--token-file", os.path.join(state, "agent.token")], check=True)
    for _ in range(50):
        if os.path.getsize(hello):
            break
        time.sleep(0.1)
    with open(hello) as f:
        return json.loads(f.readline())["pid"]


def older_agent_checks(a, d):
    """After tfwsl is upgraded, the distro's installed and running agent is an older one: status says
    so, start without consent and --dry-run leave it, start --yes stops it, installs this version and
    starts that one."""
    home, lib = os.path.join(d, "home-older"), os.path.join(d, "lib-older", "tfwsl", "tfwsl-agent")
    state = os.path.join(home, ".config", "tfwsl")
    env = dict(os.environ, HOME=home, TFWSL_AGENT_PATH=lib)
    current = subprocess.run([a.agent, "--version"], capture_output=True, text=True).stdout.split()[1]
    old = start_old_agent(lib, state)
    new_pid = None

    def tfwsl(*args):
        return subprocess.run([a.tfwsl, "agent", *args], capture_output=True, text=True, env=env,
                              stdin=subprocess.DEVNULL, timeout=120)
    try:
        r = tfwsl("status")
        flat = " ".join(r.stdout.split())  # the text as one line: it wraps at the terminal's width
        if "tfwsl-agent 0.0.9 at " + lib not in flat or f"older than this tfwsl, {current}" not in flat:
            fail(f"status of an older agent: {r.stdout!r}")
        r = tfwsl("start", "--dry-run", "--agent", a.agent)
        if r.returncode != 0 or f"would stop tfwsl-agent 0.0.9 (pid {old})" not in r.stdout or not alive(old):
            fail(f"start --dry-run with an older agent running: exit {r.returncode}, {r.stdout!r} {r.stderr!r}")
        r = tfwsl("start", "--agent", a.agent)
        if r.returncode != 2 or "--yes" not in r.stderr or not alive(old) or "0.0.9" not in open(lib).read():
            fail(f"start without consent, an older agent running: exit {r.returncode}, {r.stderr!r}")
        r = tfwsl("start", "--yes", "--agent", a.agent)
        print(r.stdout, r.stderr)
        time.sleep(0.2)
        if r.returncode != 0 or "already running" in r.stderr or alive(old):
            fail(f"start --yes left the older agent running: exit {r.returncode}, {r.stdout!r} {r.stderr!r}")
        installed = subprocess.run([lib, "--version"], capture_output=True, text=True).stdout
        if not installed.startswith(f"tfwsl-agent {current} "):
            fail(f"start --yes did not install this version: {installed!r}")
        with open(os.path.join(state, "agent.json")) as f:
            hello = json.loads(f.readline())
        new_pid = hello["pid"]
        with open(os.path.join(state, "agent.token")) as f:
            token = f.read().strip()
        status, body = get_info(hello["port"], token)
        if hello["agent"] != current or status != 200 or json.loads(body).get("agent") != current:
            fail(f"the agent started after the upgrade: {hello}, /v1/info {status} {body[:200]!r}")
    finally:
        for pid in (old, new_pid):
            if pid and alive(pid):
                os.kill(pid, 9)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tfwsl", required=True)
    ap.add_argument("--agent", required=True)
    a = ap.parse_args()
    d = tempfile.mkdtemp(prefix="tfwsl-agent-service-")
    home, lib = os.path.join(d, "home"), os.path.join(d, "lib", "tfwsl", "tfwsl-agent")
    os.makedirs(home)
    env = dict(os.environ, HOME=home, TFWSL_AGENT_PATH=lib)
    state = os.path.join(home, ".config", "tfwsl")

    def tfwsl(*args, stdin=subprocess.DEVNULL):
        return subprocess.run([a.tfwsl, "agent", *args], capture_output=True, text=True, env=env, stdin=stdin, timeout=120)

    pid = None
    try:
        refused_install_checks(a, d)
        older_agent_checks(a, d)
        r = tfwsl("status")
        if r.returncode != 1 or "installed: no" not in r.stdout:
            fail(f"status before start: exit {r.returncode}, {r.stdout!r}")
        r = tfwsl("start", "--dry-run", "--agent", a.agent)
        if r.returncode != 0 or "would install" not in r.stdout or os.path.exists(lib) or os.path.exists(state):
            fail(f"--dry-run: exit {r.returncode}, {r.stdout!r}, installed {os.path.exists(lib)}")
        r = tfwsl("start", "--agent", a.agent)
        if r.returncode != 2 or "--yes" not in r.stderr or os.path.exists(lib):
            fail(f"start without consent: exit {r.returncode}, {r.stderr!r}, installed {os.path.exists(lib)}")
        data = os.path.join(d, "data")
        os.makedirs(data)
        r = tfwsl("start", "--yes", "--agent", a.agent, "--root", data)
        print(r.stdout, r.stderr)
        if r.returncode != 0:
            fail(f"start --yes: exit {r.returncode}, {r.stderr!r}")
            return 1
        if mode(lib) != 0o755 or mode(state) != 0o700 or mode(os.path.join(state, "agent.token")) != 0o600:
            fail(f"modes: agent {oct(mode(lib))}, folder {oct(mode(state))}, token {oct(mode(os.path.join(state, 'agent.token')))}")
        with open(os.path.join(state, "agent.json")) as f:
            hello = json.loads(f.readline())
        pid, port = hello["pid"], hello["port"]
        with open(os.path.join(state, "agent.token")) as f:
            token = f.read().strip()
        if token in r.stdout + r.stderr:
            fail("start printed the token")
        status, body = get_info(port, token)
        if status != 200 or json.loads(body).get("pid") != pid:
            fail(f"/v1/info with the token: {status} {body[:200]!r}")
        if get_info(port, None)[0] != 401:
            fail("/v1/info without the token was not 401")
        r = tfwsl("status")
        if r.returncode != 0 or "answers:   yes" not in r.stdout:
            fail(f"status while running: exit {r.returncode}, {r.stdout!r} {r.stderr!r}")
        r = tfwsl("start", "--agent", a.agent)
        if r.returncode != 0 or "already running" not in r.stderr:
            fail(f"second start: exit {r.returncode}, {r.stderr!r}")
        r = tfwsl("stop")
        if r.returncode != 0 or "stopped" not in r.stdout:
            fail(f"stop: exit {r.returncode}, {r.stdout!r} {r.stderr!r}")
        time.sleep(0.2)
        if os.path.exists(f"/proc/{pid}") and "tfwsl-agent" in open(f"/proc/{pid}/cmdline").read():
            fail(f"the agent (pid {pid}) still runs after stop")
        else:
            pid = None
        r = tfwsl("status")
        if r.returncode != 1 or "running:   no" not in r.stdout:
            fail(f"status after stop: exit {r.returncode}, {r.stdout!r}")
    finally:
        if pid:
            try:
                os.kill(pid, 9)
            except OSError:
                pass
        shutil.rmtree(d, ignore_errors=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
