#!/usr/bin/env python3
"""tfwsl profile on the native Linux build, against the real tfwsl-agent observing a stand-in
machine (fake_machine.py: the Wine scenarios' fake distro through the agent's probe root, a
.wslconfig through TFWSL_WSLCONFIG):

1. a project's tfwsl.yaml, found from a subfolder, extends a team base in another folder through a
   relative path: `profile show` names where it came from and the base's lines;
2. `profile diff` on a machine that has what the profile says lists no drift (exit 0);
3. the same machine with another TensorFlow, driver and .wslconfig memory: exactly those three
   drifts, each with its fix and the profile line (exit 1);
   Without the agent it exits 2 and its JSON says why (complete: false, incomplete_because);
4. `profile export` on the machine as the profile says: `extends: builtin:tf-2.15-cuda-12.2` and
   only what differs, and diff of it finds no drift; `profile export -o FILE` on the drifted
   machine (no built-in matches: self-contained), then `profile diff FILE`: no drift;
   On a machine without TensorFlow it writes what the machine has and says what is missing (exit 1,
   no "add tensorflow:" about a file the user is not writing); `--base` fills the rest: a built-in
   name, or a file named relative to the written file;
5. `profile validate`: file:line:col errors with their fixes (exit 2), a good file exit 0;
6. `profile init`: writes tfwsl.yaml, refuses to replace it without --yes (stdin no terminal),
   replaces it with --yes, and --dry-run writes nothing; on a terminal it asks, and keeps the file
   on "n", replaces it on "y".
"""
import argparse
import json
import os
import pty
import select
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fake_machine import FakeMachine, require_fake_gpu  # noqa: E402

failures = []


def expect(condition, what, detail=""):
    if condition:
        print("ok:", what)
    else:
        failures.append(what)
        print("FAILED:", what, "\n", str(detail)[:4000])


def json_of(p, what):
    try:
        return json.loads(p.stdout)
    except json.JSONDecodeError:
        sys.exit(f"FAILED: {what} printed no JSON (exit {p.returncode}):\n{p.stdout}\n{p.stderr}")


TEAM_BASE = """# The team's base profile, kept in its own repository.
name: team-base
extends: builtin:tf-2.15-cuda-12.2
wsl: { memory: 16GB }
gpu: { driver: "546.80" }
"""
PROJECT = "extends: ../team-base/base.yaml\nname: project\n"


def layout(work):
    os.makedirs(os.path.join(work, "team-base"))
    os.makedirs(os.path.join(work, "project", "src"))
    with open(os.path.join(work, "team-base", "base.yaml"), "w") as f:
        f.write(TEAM_BASE)
    with open(os.path.join(work, "project", "tfwsl.yaml"), "w") as f:
        f.write(PROJECT)
    return os.path.join(work, "project", "src")


def show_names_the_chain(a, m, src):
    p = m.run([a.tfwsl, "profile", "show", "--json"], src)
    doc = json_of(p, "profile show --json")
    expect(p.returncode == 0, "profile show exits 0", p.stderr)
    project = os.path.join(os.path.dirname(src), "tfwsl.yaml")
    expect(doc["profile"]["origin"] == "project" and doc["profile"]["from"].startswith(project),
           "the project's tfwsl.yaml is found from a subfolder", doc["profile"])
    settings = {s["key"]: s for s in doc["settings"]}
    expect(settings["wsl.memory"]["where"].endswith("team-base/base.yaml:4:16"),
           "the relative extends reaches the team base in another folder", settings["wsl.memory"])
    expect(settings["tensorflow.version"]["where"].startswith("builtin:tf-2.15-cuda-12.2.yaml"),
           "and what the base extends", settings["tensorflow.version"])
    text = m.run([a.tfwsl, "profile", "show"], src).stdout
    expect("from: " + project in text and "(the project's tfwsl.yaml" in text, "the text says from: ...", text)


def diff(a, m, src, *extra):
    p = m.run([a.tfwsl, "profile", "diff", "--json", "--agent", a.agent, *extra], src)
    return p, json_of(p, "profile diff --json")


def diff_lists_drifts(a, m, src):
    p, doc = diff(a, m, src)
    expect(p.returncode == 0 and doc["drifts"] == [], "a machine with what the profile says: no drift, exit 0",
           f"exit {p.returncode}\n{json.dumps(doc, indent=1)}\n{p.stderr}")
    expect({"wsl.memory", "gpu.driver", "tensorflow.version", "cuda.toolkit", "python.version"} <= set(doc["same"]),
           "and the compared keys are the same", doc["same"])
    m.driver, m.tf_version, m.memory = "537.58", "2.16.1", "8GB"
    p, doc = diff(a, m, src)
    drifts = {d["key"]: d for d in doc["drifts"]}
    expect(sorted(drifts) == ["gpu.driver", "tensorflow.version", "wsl.memory"] and p.returncode == 1,
           "another TF, driver and memory: exactly those three drifts, exit 1", f"exit {p.returncode}\n{json.dumps(doc, indent=1)}")
    if len(drifts) == 3:
        expect(drifts["tensorflow.version"]["found"] == "2.16.1" and drifts["tensorflow.version"]["wanted"] == "2.15.*",
               "the TF drift says what each side has", drifts["tensorflow.version"])
        expect(drifts["gpu.driver"]["found"].startswith("537.58") and "546.80 or newer" in drifts["gpu.driver"]["fix"],
               "the driver drift names the driver to install", drifts["gpu.driver"])
        expect(drifts["wsl.memory"]["found"] == "8GB" and drifts["wsl.memory"]["where"].endswith("base.yaml:4:16")
               and "tfwsl wslconfig set memory=16GB" in drifts["wsl.memory"]["fix"], "the memory drift points at the base's line",
               drifts["wsl.memory"])
    text = m.run([a.tfwsl, "profile", "diff", "-q", "--agent", a.agent], src).stdout
    expect("3 drifts:" in text and "fix: " in text, "the text lists the three drifts with their fixes", text)


def diff_says_why_incomplete(a, m, src):
    """Exit 2 and its reason in the JSON too: no agent, so the distro's facts could not be read."""
    p, doc = diff(a, m, src)
    expect(doc.get("complete") is True and doc.get("incomplete_because", "absent") is None,
           "a diff with the whole machine says complete: true", json.dumps(doc, indent=1))
    missing = os.path.join(os.path.dirname(a.agent), "no-such-tfwsl-agent")
    p = m.run([a.tfwsl, "profile", "diff", "--json", "--agent", missing], src)
    doc = json_of(p, "profile diff --json without an agent")
    expect(p.returncode == 2 and doc.get("complete") is False
           and "the distro's facts could not be read" in (doc.get("incomplete_because") or ""),
           "without the agent: exit 2, complete: false and why", f"exit {p.returncode}\n{json.dumps(doc, indent=1)}")


def export_extends_the_matching_builtin(a, m, work):
    """The stand-in runs TF 2.15.1 with CUDA 12.2 and Python 3.10: tf-2.15-cuda-12.2, plus what differs."""
    p = m.run([a.tfwsl, "profile", "export", "-q", "--agent", a.agent, "--name", "lab-pc"], work)
    text = p.stdout
    expect(p.returncode == 0 and "\nextends: builtin:tf-2.15-cuda-12.2\nname: lab-pc\n" in text
           and 'version: "==2.15.1"' in text and "toolkit:" not in text and "and-cuda" not in text,
           "export extends the built-in profile the machine matches and writes only what differs", text + p.stderr)
    out = os.path.join(work, "short.yaml")
    with open(out, "w") as f:
        f.write(text)
    p, doc = diff(a, m, work, out)
    expect(p.returncode == 0 and doc["drifts"] == [], "diff of the short form on the same machine: no drift",
           f"exit {p.returncode}\n{json.dumps(doc, indent=1)}\n{p.stderr}")


def export_then_diff(a, m, work):
    out = os.path.join(work, "machine.yaml")
    p = m.run([a.tfwsl, "profile", "export", "-q", "--agent", a.agent, "--name", "lab-pc", "-o", out], work)
    expect(p.returncode == 0 and os.path.exists(out), "profile export -o writes the file", p.stderr)
    if not os.path.exists(out):
        return
    with open(out) as f:
        exported = f.read()
    expect('version: "==2.16.1"' in exported and 'driver: "537.58"' in exported and "memory: 8GB" in exported,
           "it describes this machine", exported)
    p, doc = diff(a, m, work, out)
    expect(p.returncode == 0 and doc["drifts"] == [], "export then diff on the same machine: no drift",
           f"exit {p.returncode}\n{json.dumps(doc, indent=1)}\n{p.stderr}")
    again = m.run([a.tfwsl, "profile", "export", "-q", "--agent", a.agent, "-o", out], work)
    expect(again.returncode == 2 and "pass --yes" in again.stderr, "a second export to the file needs --yes", again.stderr)


def export_without_tensorflow(a, m, work):
    tf = os.path.join(m.root, "usr", "lib", "python3", "dist-packages", "tensorflow")
    hidden = tf + ".hidden"
    os.rename(tf, hidden)
    try:
        out = os.path.join(work, "bare.yaml")
        p = m.run([a.tfwsl, "profile", "export", "-q", "--agent", a.agent, "--name", "bare", "-o", out, "--yes"], work)
        written = open(out).read() if os.path.exists(out) else ""
        expect(p.returncode == 1 and "toolkit:" in written and "tensorflow:" not in written
               and "# Not set: tensorflow.version (this machine has no TensorFlow installed)" in written,
               "without TensorFlow: the file has what the machine has and says what it lacks (exit 1)",
               f"exit {p.returncode}\n{written}\n{p.stderr}")
        expect("add tensorflow:" not in p.stderr and "--base" in p.stderr
               and "has no tensorflow.version: this machine has no TensorFlow installed" in p.stderr,
               "and says so in export's words, naming --base", p.stderr)
        p = m.run([a.tfwsl, "profile", "export", "-q", "--agent", a.agent, "--base", "tf-2.15-cuda-12.2"], work)
        expect(p.returncode == 0 and "\nextends: builtin:tf-2.15-cuda-12.2\n" in p.stdout and "Not set" not in p.stdout,
               "--base NAME: the file extends the built-in profile (exit 0)", f"exit {p.returncode}\n{p.stdout}\n{p.stderr}")
        os.makedirs(os.path.join(work, "lab"), exist_ok=True)
        out = os.path.join(work, "lab", "pc.yaml")
        base = os.path.join(work, "team-base", "base.yaml")
        p = m.run([a.tfwsl, "profile", "export", "-q", "--agent", a.agent, "--base", base, "-o", out, "--yes"], work)
        written = open(out).read() if os.path.exists(out) else ""
        expect(p.returncode == 0 and "\nextends: ../team-base/base.yaml\n" in written,
               "--base FILE: named relative to the written file", f"exit {p.returncode}\n{written}\n{p.stderr}")
        p, doc = diff(a, m, work, out)
        expect([d["key"] for d in doc.get("drifts", [])] == ["tensorflow.version"]
               and doc["drifts"][0]["found"] == "none installed",
               "and diff of it loads the base: only the TensorFlow it lacks", json.dumps(doc, indent=1) + p.stderr)
        text = m.run([a.tfwsl, "profile", "diff", "-q", "--agent", a.agent, out], work).stdout
        expect("this machine has none installed" in text, "the text says 'has none installed'", text)
    finally:
        os.rename(hidden, tf)


def validate(a, m, work):
    bad = os.path.join(work, "bad.yaml")
    with open(bad, "w") as f:
        f.write('name: bad\ncdua: { toolkit: "12.2" }\nwsl: { memory: 16 GB }\ntensorflow: { version: "2.15.*" }\n')
    p = m.run([a.tfwsl, "profile", "validate", bad], work)
    # A line longer than 80 columns goes on under an indent (fit_to_width): each issue joined back.
    lines = [l for l in p.stdout.replace("\n  ", " ").splitlines() if ": error: " in l]
    expect(p.returncode == 2 and len(lines) == 2, "validate: two errors, exit 2", p.stdout)
    expect(any(l.startswith(bad + ":2:1: error: unknown key 'cdua'") and "; fix: rename it to 'cuda'" in l for l in lines),
           "file:line:col with the fix", p.stdout)
    good = m.run([a.tfwsl, "profile", "validate", os.path.join(work, "project", "tfwsl.yaml")], work)
    expect(good.returncode == 0 and "valid" in good.stdout, "a good profile is valid, exit 0", good.stdout + good.stderr)


def init(a, m, work):
    folder = os.path.join(work, "fresh")
    os.makedirs(folder)
    target = os.path.join(folder, "tfwsl.yaml")
    dry = m.run([a.tfwsl, "profile", "init", "--dry-run"], folder)
    expect(dry.returncode == 0 and "name: tf-2.15-cuda-12.2" in dry.stdout and not os.path.exists(target),
           "init --dry-run prints the profile and writes nothing", dry.stderr)
    first = m.run([a.tfwsl, "profile", "init"], folder)
    expect(first.returncode == 0 and os.path.exists(target), "init writes tfwsl.yaml", first.stderr)
    with open(target, "a") as f:
        f.write("# mine\n")
    refused = m.run([a.tfwsl, "profile", "init"], folder)
    with open(target) as f:
        kept = f.read().endswith("# mine\n")
    expect(refused.returncode == 2 and kept and "--yes" in refused.stderr, "a second init refuses to replace it", refused.stderr)
    replaced = m.run([a.tfwsl, "profile", "init", "--yes"], folder)
    with open(target) as f:
        text = f.read()
    expect(replaced.returncode == 0 and not text.endswith("# mine\n"), "--yes replaces it", replaced.stderr)
    valid = m.run([a.tfwsl, "profile", "validate", target], folder)
    expect(valid.returncode == 0, "what init wrote is valid", valid.stdout)


def on_terminal(argv, cwd, answer, env):
    """argv on a pty (stdin a terminal); `answer` is typed once the question shows. (exit, output)."""
    master, slave = pty.openpty()
    child = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave, cwd=cwd, env=env, close_fds=True)
    os.close(slave)
    output, sent, deadline = b"", False, time.monotonic() + 60
    while time.monotonic() < deadline:
        ready, _, _ = select.select([master], [], [], 0.2)
        if ready:
            try:
                chunk = os.read(master, 65536)
            except OSError:  # EIO: the child closed the pty
                break
            if not chunk:
                break
            output += chunk
        if not sent and b"[y/N]" in output:
            os.write(master, answer)
            sent = True
        if child.poll() is not None and not ready:
            break
    os.close(master)
    return child.wait(timeout=60), output.decode("utf-8", "replace")


def init_asks_on_a_terminal(a, m, work):
    folder = os.path.join(work, "asked")
    os.makedirs(folder)
    target = os.path.join(folder, "tfwsl.yaml")
    with open(target, "w") as f:
        f.write("name: mine\n")
    code, out = on_terminal([a.tfwsl, "profile", "init"], folder, b"n\n", m.env())
    with open(target) as f:
        kept = f.read() == "name: mine\n"
    expect(code == 2 and kept and "Replace it? [y/N]" in out, "on a terminal init asks, and 'n' keeps the file", out)
    code, out = on_terminal([a.tfwsl, "profile", "init"], folder, b"y\n", m.env())
    with open(target) as f:
        replaced = "name: tf-2.15-cuda-12.2" in f.read()
    expect(code == 0 and replaced, "'y' replaces it", out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tfwsl", required=True)
    ap.add_argument("--agent", required=True)
    ap.add_argument("--fake-distro", required=True)
    ap.add_argument("--fake-gpu", required=True)
    a = ap.parse_args()
    a.tfwsl, a.agent, a.fake_distro, a.fake_gpu = map(os.path.abspath, (a.tfwsl, a.agent, a.fake_distro, a.fake_gpu))
    require_fake_gpu(a.fake_gpu)
    with tempfile.TemporaryDirectory() as work:
        m = FakeMachine(work, a.fake_distro, a.fake_gpu)
        src = layout(work)
        show_names_the_chain(a, m, src)
        diff_says_why_incomplete(a, m, src)
        export_extends_the_matching_builtin(a, m, work)
        diff_lists_drifts(a, m, src)
        export_then_diff(a, m, work)
        export_without_tensorflow(a, m, work)
        validate(a, m, work)
        init(a, m, work)
        init_asks_on_a_terminal(a, m, work)
    if failures:
        print(f"{len(failures)} problem(s)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
