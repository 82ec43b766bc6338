#!/usr/bin/env python3
"""tfwsl-agent provision for real, in a Debian bookworm root built by debootstrap, as root in a chroot.

The root is built once (debootstrap --variant=minbase, cached in the build folder) and copied
fresh for each run of this test. The test builds a local apt repository and a wheel folder of
stand-ins with the real names (standin_packages.py), mounts /proc in the chroot, and runs the
agent's distro steps there: apt as root, the venv and pip as a user, everything offline.

Asserts: the first run changes something and every step passes (a conffile dpkg would ask about
keeps the local copy, nothing prompts); the second run changes nothing and starts no apt, dpkg or
pip process (the process log, and wrappers around apt-get and dpkg in the chroot); `apt-get
update` runs once per sources state; TensorFlow's library-link fix-up is applied only when the
stand-in TF's probe shows the need, and the run after it changes nothing; a run killed
in the middle of dpkg is reported by the next run, which repairs dpkg and finishes; a dpkg lock
held by another process is waited for, then "dpkg lock busy (held by PID N, name)"; a second run
while one holds the state lock is refused; a profile asking for cuda-drivers fails validation with
the reason and starts nothing. With --tfwsl, in a second fresh root: the user data of `tfwsl provision
--cloud-init` (its files written, its runcmd run as cloud-init's runcmd runs each list) sets the
root up, runs again without failing, and then the agent's own provision finds all 11 steps done.

Exit 0: passed; 1: a failure (printed); 77: skipped (not root, or debootstrap/apt-ftparchive/
dpkg-deb/chroot missing, or debootstrap could not build the root).
"""
import argparse
import fcntl
import json
import os
import shutil
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import standin_packages as sp  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "schema"))
import schema_support as ss  # noqa: E402

SCHEMAS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "docs", "schema")
validated = []

SKIPPED = 77
INCLUDE = "ca-certificates,curl,python3-venv"
USER = "tfuser"
STATE = "/var/lib/tfwsl/provision"
failures = []


def check(condition, what, detail=""):
    print(("ok: " if condition else "FAILED: ") + what + ("" if condition or not detail else f"\n    {detail}"))
    if not condition:
        failures.append(what)
    return condition


def skip(reason):
    print(f"skipped: {reason}")
    sys.exit(SKIPPED)


def cached_root(cache, mirror):
    """The pristine root, debootstrapped once per build folder."""
    base = os.path.join(cache, "bookworm-minbase")
    marker = os.path.join(base, ".tfwsl-cache-ok")
    if os.path.exists(marker) and open(marker).read().strip() == INCLUDE:
        return base
    shutil.rmtree(base, ignore_errors=True)
    tmp = base + ".tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(cache, exist_ok=True)
    started = time.monotonic()
    p = subprocess.run(["debootstrap", "--variant=minbase", f"--include={INCLUDE}", "bookworm", tmp, mirror],
                       capture_output=True, text=True, timeout=1500)
    if p.returncode != 0:
        skip(f"debootstrap could not build the root ({p.returncode}): {p.stderr[-500:] or p.stdout[-500:]}")
    with open(os.path.join(tmp, ".tfwsl-cache-ok"), "w") as f:
        f.write(INCLUDE + "\n")
    os.rename(tmp, base)
    print(f"built the cached root in {time.monotonic() - started:.0f} s")
    return base


def sh(root, *argv, check_rc=True):
    p = subprocess.run(["chroot", root, *argv], capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=300)
    if check_rc and p.returncode != 0:
        raise RuntimeError(f"{argv} in the chroot exited {p.returncode}: {p.stderr}")
    return p


def audit_wrappers(root):
    """apt-get and dpkg in the chroot log each start to /var/log/tfwsl-audit.log, then run the real one."""
    for tool in ("apt-get", "dpkg"):
        real = os.path.join(root, "usr/bin", tool)
        os.rename(real, real + ".real")
        with open(real, "w") as f:
            f.write(f"#!/bin/sh\necho \"{tool} $*\" >> /var/log/tfwsl-audit.log\nexec /usr/bin/{tool}.real \"$@\"\n")
        os.chmod(real, 0o755)


def prepare_root(pristine, work, agent):
    root = os.path.join(work, "root")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    subprocess.run(["cp", "-a", pristine, root], check=True)
    with open(os.path.join(root, "etc/apt/sources.list"), "w") as f:
        f.write("deb [trusted=yes] file:/srv/local-repo ./\n")  # offline: only the test's repository
    for name in os.listdir(os.path.join(root, "etc/apt/sources.list.d")):
        os.remove(os.path.join(root, "etc/apt/sources.list.d", name))
    sp.build_apt_repositories(root, os.path.join(work, "debs"))
    sp.build_wheels(root)
    shutil.copy2(agent, os.path.join(root, "usr/local/bin/tfwsl-agent"))
    with open(os.path.join(root, "etc/standin-conffile.conf"), "w") as f:
        f.write("local = edited by the user\n")  # dpkg would ask: keep it (--force-confold)
    with open(os.path.join(root, "srv/team.yaml"), "w") as f:
        f.write("name: team\nextends: builtin:tf-2.15-cuda-12.2\npython: { version: \"3.11\" }\n"
                "packages: { apt: [python3-venv, standin-conffile], pip: [\"numpy<2\"] }\n")
    with open(os.path.join(root, "srv/bad.yaml"), "w") as f:
        f.write("name: bad\nextends: builtin:tf-2.15-cuda-12.2\npackages: { apt: [python3-venv, cuda-drivers] }\n")
    audit_wrappers(root)
    sh(root, "useradd", "-m", "-u", "1000", "-s", "/bin/sh", USER)
    return root


def agent_argv(root, profile="/srv/team.yaml", extra=()):
    return ["chroot", root, "/usr/local/bin/tfwsl-agent", "provision", "--profile", profile, "--platform", "wsl",
            "--user", USER, "--keyring-url", "file:///srv/cuda-repo/cuda-keyring_1.1-1_all.deb",
            "--pip-find-links", "/srv/wheels", "--json", *extra]


def provision(root, profile="/srv/team.yaml", extra=(), timeout=600):
    started = time.monotonic()
    p = subprocess.run(agent_argv(root, profile, extra), capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=timeout)
    elapsed = time.monotonic() - started
    try:
        doc = json.loads(p.stdout) if p.stdout.strip() else None
    except json.JSONDecodeError:
        doc = None
    if doc is not None and ss.jsonschema is not None:  # every real recap against docs/schema/provision.schema.json
        found = ss.problems(ss.load_schemas(SCHEMAS), "provision", doc)
        check(not found, "the recap validates against provision.schema.json", "\n".join(found[:10]))
        validated.append(1)
    return p, doc, elapsed


def lines(path):
    try:
        with open(path) as f:
            return f.read().splitlines()
    except FileNotFoundError:
        return []


def results(doc):
    return {s["id"]: s for s in doc["recap"]["steps"]} if doc and "recap" in doc else {}


def describe(p, doc):
    return f"exit {p.returncode}; stderr: {p.stderr[-1500:]}; recap: {json.dumps(doc['recap'] if doc else None)[:3000]}"


def progress_events(stderr):
    events = []
    for line in stderr.splitlines():
        try:
            j = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(j, dict) and "progress" in j:
            events.append(j["progress"])
    return events


def first_and_second_run(root):
    p, doc, elapsed = provision(root, extra=("--progress-json",))
    steps = results(doc)
    events = progress_events(p.stderr)
    seen = {(e["step"], e["phase"], e["item"]) for e in events}
    check(("cuda.toolkit", "checking", "") in seen and ("cuda.toolkit", "installing", "cuda-toolkit-12-2") in seen
          and ("tensorflow.install", "installing", "") in seen,
          f"first run: --progress-json reports each step and apt's and pip's progress as they print it ({len(events)} events)",
          json.dumps(sorted(seen))[:2000])
    counts = doc["recap"]["counts"] if doc else {}
    check(p.returncode == 0 and counts.get("changed", 0) > 0 and counts.get("failed", 1) == 0,
          f"first run: changed {counts.get('changed')} > 0, nothing failed ({elapsed:.1f} s)", describe(p, doc))
    check(all(s["result"] in ("ok", "changed") for s in steps.values()) and len(steps) == 11,
          "first run: every one of the 11 distro steps passes its check", describe(p, doc))
    for step in ("cuda.repository", "cuda.toolkit", "apt.packages", "python.venv", "tensorflow.install", "env.file"):
        check(steps.get(step, {}).get("result") == "changed", f"first run: {step} changed")
    check(steps.get("tensorflow.fixups", {}).get("result") == "ok", "first run: the TF fix-ups are not applied (the probe needs none)")
    check(steps.get("tensorflow.verify", {}).get("result") == "ok", "first run: the final TensorFlow check passes (the judge)",
          json.dumps(steps.get("tensorflow.verify")))
    conf = open(os.path.join(root, "etc/standin-conffile.conf")).read()
    check("edited by the user" in conf, "the conffile dpkg would ask about keeps the local copy (--force-confold), no prompt")
    venv_owner = os.stat(os.path.join(root, "home", USER, ".venvs/tf-2.15/pyvenv.cfg")).st_uid
    check(venv_owner == 1000, "the venv belongs to the user (pip never as root)")
    processes = [json.loads(line) for line in lines(os.path.join(root, STATE.lstrip("/"), "processes.jsonl"))]
    pip = [x for x in processes if "pip" in x["argv"]]
    check(pip and all(x["as"] == USER for x in pip), "pip ran as the user, into the venv", json.dumps(pip)[:500])
    # Four apt steps each list `apt-get update`; it runs once per sources state: here once, after
    # cuda-keyring added NVIDIA's entry (the prerequisites are in the root already, nothing ran before).
    updates = [x for x in processes if x["argv"][:1] == ["apt-get"] and x["argv"][-1:] == ["update"]]
    check(len(updates) == 1 and updates[0]["step"] == "cuda.repository",
          f"first run: apt-get update ran once, after the sources changed ({len(updates)} times)",
          json.dumps([(x["step"], x["argv"]) for x in updates]))
    audit = os.path.join(root, "var/log/tfwsl-audit.log")
    before_audit, before_processes = len(lines(audit)), len(processes)
    p, doc, elapsed = provision(root)
    counts = doc["recap"]["counts"] if doc else {}
    check(p.returncode == 0 and counts.get("changed") == 0 and counts.get("ok") == 11,
          f"second run: changed 0, all 11 ok ({elapsed:.1f} s)", describe(p, doc))
    new_processes = lines(os.path.join(root, STATE.lstrip("/"), "processes.jsonl"))[before_processes:]
    check(new_processes == [], "second run: the process log shows no process started", "\n".join(new_processes))
    check(lines(audit)[before_audit:] == [], "second run: no apt-get or dpkg started (the wrappers in the chroot)",
          "\n".join(lines(audit)[before_audit:]))


def fixups_when_needed(root):
    """The stand-in TF now finds the pip cuDNN only through TensorFlow's link: the fix-up is applied once."""
    open(os.path.join(root, sp.NEEDS_LINKS_FLAG.lstrip("/")), "w").close()
    log = os.path.join(root, STATE.lstrip("/"), "processes.jsonl")
    before = len(lines(log))
    p, doc, elapsed = provision(root)
    steps = results(doc)
    counts = doc["recap"]["counts"] if doc else {}
    check(p.returncode == 0 and counts.get("changed") == 1 and steps.get("tensorflow.fixups", {}).get("result") == "changed",
          f"TF needs the library links: only tensorflow.fixups changes ({elapsed:.1f} s)", describe(p, doc))
    site = os.path.join(root, "home", USER, ".venvs/tf-2.15/lib")
    links = [os.path.join(d, "libcudnn.so.8") for d, _, _ in os.walk(site) if d.endswith("site-packages/tensorflow")]
    check(links and os.path.islink(links[0]) and os.lstat(links[0]).st_uid == 1000,
          "... the pip cuDNN is linked next to TensorFlow, owned by the user", str(links))
    check(steps.get("tensorflow.verify", {}).get("result") == "ok", "... and the final check then sees the GPU",
          json.dumps(steps.get("tensorflow.verify")))
    check(lines(log)[before:] == [], "... without starting apt or pip", "\n".join(lines(log)[before:]))
    p, doc, elapsed = provision(root)
    counts = doc["recap"]["counts"] if doc else {}
    check(p.returncode == 0 and counts.get("changed") == 0, f"the run after the fix-up changes nothing ({elapsed:.1f} s)",
          describe(p, doc))
    open(os.path.join(root, sp.NEEDS_XLA_FLAG.lstrip("/")), "w").close()
    p, doc, elapsed = provision(root)
    steps = results(doc)
    counts = doc["recap"]["counts"] if doc else {}
    check(p.returncode == 0 and counts.get("changed") == 1 and steps.get("tensorflow.fixups", {}).get("result") == "changed",
          f"XLA finds no libdevice: only tensorflow.fixups changes ({elapsed:.1f} s)", describe(p, doc))
    fixups = os.path.join(root, "home", USER, ".config/tfwsl/team.env.fixups")
    text = open(fixups).read() if os.path.exists(fixups) else ""
    check("export XLA_FLAGS='--xla_gpu_cuda_data_dir=/home/tfuser/.venvs/tf-2.15/lib/" in text and "nvidia/cuda_nvcc'" in text
          and os.stat(fixups).st_uid == 1000, "... XLA_FLAGS names the pip nvcc folder, in the user's fix-ups file", text)
    env = open(os.path.join(root, "home", USER, ".config/tfwsl/team.env")).read()
    check(f". '/home/{USER}/.config/tfwsl/team.env.fixups'" in env, "... which the profile's environment file sources", env)
    p, doc, elapsed = provision(root)
    counts = doc["recap"]["counts"] if doc else {}
    check(p.returncode == 0 and counts.get("changed") == 0, f"the run after the XLA fix-up changes nothing ({elapsed:.1f} s)",
          describe(p, doc))


def chroot_pids(root):
    real = os.path.realpath(root)
    out = []
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                if os.path.realpath(f"/proc/{pid}/root") == real:
                    out.append(int(pid))
            except OSError:
                pass
    return out


def leave_root(root, proc):
    """Kills what still runs in the root and unmounts its /proc."""
    for pid in chroot_pids(root):
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    subprocess.run(["umount", "-l", proc])


def killed_during_apt(root):
    sh(root, "dpkg", "--purge", "cuda-toolkit-12-2")
    open(os.path.join(root, sp.SLOW_POSTINST_FLAG.lstrip("/")), "w").close()
    started_flag = os.path.join(root, sp.POSTINST_STARTED.lstrip("/"))
    proc = subprocess.Popen(agent_argv(root), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL,
                            start_new_session=True)
    deadline = time.monotonic() + 120
    while not os.path.exists(started_flag) and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.1)
    if not check(os.path.exists(started_flag), "killed during apt: the toolkit's postinst started"):
        proc.kill()
        proc.wait()
        return
    os.killpg(proc.pid, signal.SIGKILL)
    for pid in chroot_pids(root):  # apt may have put dpkg in a session of its own
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    proc.wait()
    os.remove(os.path.join(root, sp.SLOW_POSTINST_FLAG.lstrip("/")))
    status = open(os.path.join(root, "var/lib/dpkg/status")).read()
    updates = os.listdir(os.path.join(root, "var/lib/dpkg/updates"))
    check("half-configured" in status or "unpacked" in status or updates, "killed during apt: dpkg is left interrupted",
          f"updates: {updates}")
    p, doc, elapsed = provision(root)
    steps = results(doc)
    check(doc and doc["recap"]["interrupted_step"] == "cuda.toolkit", "the re-run reports the interrupted step (cuda.toolkit)",
          describe(p, doc))
    check(steps.get("dpkg.health", {}).get("result") == "changed" and "dpkg --configure -a" in json.dumps(doc["recap"]),
          "the re-run repairs dpkg first with the catalogued repair", json.dumps(steps.get("dpkg.health")))
    check(p.returncode == 0 and doc["recap"]["counts"]["failed"] == 0, f"the re-run finishes ({elapsed:.1f} s)", describe(p, doc))


def lock_held(root):
    sh(root, "dpkg", "--purge", "standin-conffile")
    lock = os.path.join(root, "var/lib/dpkg/lock-frontend")
    holder = subprocess.Popen([sys.executable, "-c", "import fcntl,sys,time\nf=open(sys.argv[1],'a')\n"
                               "fcntl.lockf(f, fcntl.LOCK_EX)\nprint('held', flush=True)\ntime.sleep(120)", lock],
                              stdout=subprocess.PIPE, text=True)
    try:
        holder.stdout.readline()
        p, doc, elapsed = provision(root, extra=("--lock-wait", "3"))
        step = results(doc).get("apt.packages", {})
        want = f"dpkg lock busy (held by PID {holder.pid}, python3)"
        check(p.returncode == 2 and step.get("result") == "failed" and want in step.get("message", ""),
              f"a dpkg lock held by another process: {want}", describe(p, doc))
        check(elapsed >= 3, f"... after waiting the --lock-wait (3 s; took {elapsed:.1f} s)")
    finally:
        holder.kill()
        holder.wait()


def one_run_at_a_time(root):
    lock = os.path.join(root, STATE.lstrip("/"), "lock")
    with open(lock, "a") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        p, _, _ = provision(root, extra=("--check",))
    check(p.returncode == 2 and "another provision run is in progress" in p.stderr, "a second run at once is refused",
          p.stderr[-500:])


def cuda_drivers_refused(root):
    before = len(lines(os.path.join(root, STATE.lstrip("/"), "processes.jsonl")))
    p, _, _ = provision(root, profile="/srv/bad.yaml")
    check(p.returncode == 2 and "'cuda-drivers' installs a Linux NVIDIA driver inside WSL" in p.stderr,
          "a profile asking for cuda-drivers fails validation with the reason", p.stderr[-800:])
    check(len(lines(os.path.join(root, STATE.lstrip("/"), "processes.jsonl"))) == before, "... and starts nothing")


def cloud_init_user_data(tfwsl, root):
    """tfwsl provision --cloud-init for the root's team profile, with the test's offline sources."""
    p = subprocess.run([tfwsl, "provision", "--profile", os.path.join(root, "srv/team.yaml"), "--cloud-init", "--user", USER,
                        "--keyring-url", "file:///srv/cuda-repo/cuda-keyring_1.1-1_all.deb", "--pip-find-links", "/srv/wheels"],
                       capture_output=True, text=True, stdin=subprocess.DEVNULL)
    check(p.returncode == 0, "cloud-init: tfwsl provision --cloud-init prints the user data", p.stderr[-800:])
    return p.stdout


def run_user_data(root, doc):
    """What cloud-init does with it (the user exists already, as `users` makes it): write_files, then
    each runcmd list as its argv. The failed commands' argv, empty when all passed."""
    for f in doc["write_files"]:
        path = os.path.join(root, f["path"].lstrip("/"))
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "a" if f.get("append") else "w") as out:
            out.write(f["content"])
        os.chmod(path, int(f["permissions"], 8))
    failed = []
    for argv in doc["runcmd"]:
        if argv == "set -e":  # runcmd's script stops at a failure; here every failure is listed
            continue
        p = sh(root, *argv, check_rc=False)
        if p.returncode != 0:
            failed.append(f"{argv}: exit {p.returncode}: {p.stderr[-400:]}")
    return failed


def cloud_init_steps(pristine, work, agent, tfwsl):
    import yaml
    root = prepare_root(pristine, work, agent)
    proc = os.path.join(root, "proc")
    subprocess.run(["mount", "-t", "proc", "proc", proc], check=True)
    try:
        doc = yaml.safe_load(cloud_init_user_data(tfwsl, root))
        if not check(isinstance(doc, dict) and "runcmd" in doc, "cloud-init: the user data is a cloud-config with runcmd"):
            return
        failed = run_user_data(root, doc)
        check(not failed, f"cloud-init: the user data's {len(doc['runcmd'])} commands pass in a fresh root", "\n".join(failed))
        failed = run_user_data(root, doc)
        check(not failed, "cloud-init: run again, they pass again (idempotent)", "\n".join(failed))
        p, run, _ = provision(root)
        counts = run["recap"]["counts"] if run else {}
        check(p.returncode == 0 and counts.get("changed") == 0 and counts.get("ok") == 11,
              "cloud-init: then the agent's provision finds every distro step done (changed 0, all 11 ok)", describe(p, run))
        venv_owner = os.stat(os.path.join(root, "home", USER, ".venvs/tf-2.15/pyvenv.cfg")).st_uid
        check(venv_owner == 1000, "cloud-init: the venv belongs to the user")
    finally:
        leave_root(root, proc)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--agent", required=True)
    ap.add_argument("--tfwsl", help="tfwsl, for the cloud-init user data's run (skipped without it)")
    ap.add_argument("--cache", required=True, help="build-tree folder for the debootstrapped root (kept)")
    ap.add_argument("--work", required=True, help="build-tree folder for this run's copy (replaced)")
    ap.add_argument("--mirror", default=os.environ.get("TFWSL_DEBIAN_MIRROR", "http://deb.debian.org/debian"))
    args = ap.parse_args()
    if os.geteuid() != 0:
        skip("needs root (debootstrap, chroot, mount)")
    for tool in ("debootstrap", "apt-ftparchive", "dpkg-deb", "chroot", "mount"):
        if not shutil.which(tool):
            skip(f"{tool} is missing (scripts/install-deps.sh installs debootstrap and apt-utils)")
    started = time.monotonic()
    pristine = cached_root(args.cache, args.mirror)
    root = prepare_root(pristine, args.work, args.agent)
    proc = os.path.join(root, "proc")
    if subprocess.run(["mount", "-t", "proc", "proc", proc]).returncode != 0:
        skip("cannot mount /proc in the chroot")
    try:
        first_and_second_run(root)
        fixups_when_needed(root)
        killed_during_apt(root)
        lock_held(root)
        one_run_at_a_time(root)
        cuda_drivers_refused(root)
    finally:
        leave_root(root, proc)
    if args.tfwsl:
        cloud_init_steps(pristine, args.work + "-cloud-init", args.agent, args.tfwsl)
    print(f"total {time.monotonic() - started:.1f} s")
    if failures:
        print(f"{len(failures)} failure(s)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
