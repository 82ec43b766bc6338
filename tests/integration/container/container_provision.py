#!/usr/bin/env python3
"""The container route's provisioning for real: tfwsl-agent provision --profile (route: container) in a
Debian bookworm root standing in for a WSL distro (container_world.py), as root, entered through a mount
namespace whose / is the root (rootless Podman refuses a chroot(8)).

Real: Debian's podman, runc and uidmap installed by the agent's apt step from their .debs; NVIDIA's
toolkit repository step against a local repository signed with a key made here (apt verifies it); a
registry on loopback (Debian's docker-registry) holding an image made here, pulled by repository@digest
as the user, rootless; the container run with the CDI spec's GPU device. Stand-ins: nvidia-ctk (writes
the spec the real one writes for WSL, container_world.py cites the source), the GPU files WSL puts in a
distro, and the TensorFlow inside the image.

Asserts: every step of the plan passes and the image's TensorFlow runs an op on GPU:0; a second run
changes nothing and starts no apt or podman pull; after a stand-in driver update (a new driver-store
folder) `--check` finds the spec stale and what it names, and a run regenerates only the spec; a pull
stopped midway is finished by the next run. Benchmark: the agent's pull step against `podman pull` of
the same image in the same world (medians; the step includes its own check).

Exit 0: passed; 1: a failure (printed); 77: skipped (not root, a tool missing, no debootstrap, or
no user namespaces: a chroot such as fresh-root-check's, where the kernel refuses CLONE_NEWUSER).
"""
import argparse
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "provision"))
sys.path.insert(0, os.path.join(HERE, "..", "schema"))
import container_world as cw  # noqa: E402
import provision_chroot as pc  # noqa: E402
import schema_support as ss  # noqa: E402

SCHEMAS = os.path.join(HERE, "..", "..", "..", "docs", "schema")
USER = cw.USER
failures = cw.failures
check = cw.check


def signed_toolkit_repository(root, work):
    """/srv/toolkit-repo: the stand-in toolkit .debs in a flat repository signed with a key made here,
    and that key, armored, at /srv/toolkit-key.asc (what NVIDIA's gpgkey URL serves)."""
    repo = os.path.join(root, "srv/toolkit-repo")
    os.makedirs(repo)
    cw.standin_toolkit_debs(repo)
    home = os.path.join(work, "gnupg")
    os.makedirs(home, mode=0o700)
    gpg = ["gpg", "--batch", "--homedir", home, "--pinentry-mode", "loopback", "--passphrase", ""]
    cw.run(gpg + ["--quick-gen-key", "tfwsl test repository <test@tfwsl.invalid>", "rsa2048", "sign", "never"])
    with open(os.path.join(root, "srv/toolkit-key.asc"), "wb") as f:
        f.write(subprocess.run(gpg + ["--armor", "--export"], check=True, capture_output=True).stdout)
    with open(os.path.join(repo, "Packages"), "wb") as f:
        subprocess.run(["apt-ftparchive", "packages", "."], cwd=repo, check=True, stdout=f)
    with open(os.path.join(repo, "Release"), "wb") as f:
        subprocess.run(["apt-ftparchive", "release", "."], cwd=repo, check=True, stdout=f)
    cw.run(gpg + ["--clearsign", "--digest-algo", "SHA512", "-o", os.path.join(repo, "InRelease"),
                  os.path.join(repo, "Release")])
    subprocess.run(["gpgconf", "--homedir", home, "--kill", "gpg-agent"], capture_output=True)  # nothing outlives it


def write_profile(root, image, digest):
    with open(os.path.join(root, "srv/ngc.yaml"), "w") as f:
        f.write("name: ngc-standin\nextends: builtin:ngc-tf-25.02\n"
                f"container: {{ image: \"{image}\", digest: \"{digest}\", mounts: [] }}\n")


def agent_argv(extra=()):
    return ["/usr/local/bin/tfwsl-agent", "provision", "--profile", "/srv/ngc.yaml", "--platform", "wsl", "--user",
            USER, "--toolkit-key-url", "file:///srv/toolkit-key.asc", "--toolkit-repository-url",
            "file:/srv/toolkit-repo", "--json", *extra]


def provision(root, extra=(), timeout=900):
    started = time.monotonic()
    p = subprocess.run(cw.enter_argv(root, "/usr/bin/env", "-i", f"PATH={cw.PATH}", *agent_argv(extra)),
                       capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=timeout)
    elapsed = time.monotonic() - started
    try:
        doc = json.loads(p.stdout) if p.stdout.strip() else None
    except json.JSONDecodeError:
        doc = None
    if doc is not None and ss.jsonschema is not None:
        found = ss.problems(ss.load_schemas(SCHEMAS), "provision", doc)
        check(not found, "the recap validates against provision.schema.json", "\n".join(found[:10]))
    return p, doc, elapsed


def results(doc):
    return {s["id"]: s for s in doc["recap"]["steps"]} if doc and "recap" in doc else {}


def describe(p, doc):
    return f"exit {p.returncode}; stderr: {p.stderr[-1500:]}; recap: {json.dumps(doc['recap'] if doc else None)[:3000]}"


def process_log(root):
    path = os.path.join(root, "var/lib/tfwsl/provision/processes.jsonl")
    return [json.loads(line) for line in open(path)] if os.path.exists(path) else []


def fake_gpu(root, folder):
    """The test's fake libcuda and NVML (tests/wsl_standin: a GPU by TFWSL_FAKE_* settings) where WSL puts
    the Windows driver's, found through WSL's own ld.so.conf.d entry: the doctor's GPU facts read them."""
    for name in ("libcuda.so.1", "libnvidia-ml.so.1"):
        shutil.copy2(os.path.join(folder, name), os.path.join(root, "usr/lib/wsl/lib", name))
    with open(os.path.join(root, "etc/ld.so.conf.d/ld.wsl.conf"), "w") as f:
        f.write("/usr/lib/wsl/lib\n")
    cw.run(["chroot", root, "ldconfig"])


def doctor(root, extra=("--json",), timeout=600):
    """tfwsl doctor in the root (native Linux: the agent beside it is started as a child), as root."""
    argv = ["/usr/local/bin/tfwsl", "doctor", "--profile", "/srv/ngc.yaml", "--agent", "/usr/local/bin/tfwsl-agent",
            *extra]
    # WSL sets WSL_DISTRO_NAME in every process of a distro: the agent's --platform auto reads it.
    p = subprocess.run(cw.enter_argv(root, "/usr/bin/env", "-i", f"PATH={cw.PATH}", "HOME=/root",
                                     "WSL_DISTRO_NAME=Ubuntu-24.04", "TFWSL_FAKE_CC=12.0",
                                     "TFWSL_FAKE_GPU_NAME=NVIDIA GeForce RTX 5090", *argv),
                       capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=timeout)
    try:
        doc = json.loads(p.stdout) if "--json" in extra and p.stdout.strip() else None
    except json.JSONDecodeError:
        doc = None
    if doc is not None and ss.jsonschema is not None:
        found = ss.problems(ss.load_schemas(SCHEMAS), "doctor", doc)
        check(not found, "the doctor's --json validates against doctor.schema.json", "\n".join(found[:10]))
    return p, doc


SHOW = []  # --show: the doctor's container rows and text printed for each state (docs/doctor.md's samples)


def show(state, root):
    if not SHOW:
        return
    p, doc = doctor(root)
    print(f"--- {state}: tfwsl doctor --json, the container rows ---")
    print(json.dumps(list(container_rows(doc).values()), indent=2))
    p, _ = doctor(root, ("-v",))
    print(f"--- {state}: tfwsl doctor -v, the container route ---")
    print("\n".join(line for line in p.stdout.splitlines() if "ontainer" in line or line.startswith("    ")))


def container_rows(doc):
    return {c["id"]: c for c in (doc or {}).get("checks", []) if c["id"].startswith("container.")}


def doctor_engine_missing(root):
    p, doc = doctor(root)
    rows = container_rows(doc)
    engine = rows.get("container.engine", {})
    check(engine.get("status") == "fail" and "podman" in engine.get("summary", ""),
          "doctor before provisioning: container.engine fails, naming podman", json.dumps(engine) + p.stderr[-800:])
    check(sorted(rows) == ["container.cdi-spec", "container.engine", "container.gpu", "container.image",
                           "container.tensorflow", "container.toolkit"],
          "... and reports the route's six checks", json.dumps(sorted(rows)))
    check(engine.get("fix") == "tfwsl provision --profile /srv/ngc.yaml", "... whose fix is tfwsl provision", engine.get("fix"))
    show("engine missing", root)


def doctor_healthy(root):
    p, doc = doctor(root)
    rows = container_rows(doc)
    bad = {k: v for k, v in rows.items() if v.get("status") != "ok"}
    check(len(rows) == 6 and not bad, "doctor on the provisioned distro: the six container checks are ok",
          json.dumps(bad)[:2000] + p.stderr[-800:])
    check("2.17.0" in rows.get("container.tensorflow", {}).get("summary", ""),
          "... container.tensorflow names the image's TensorFlow", json.dumps(rows.get("container.tensorflow")))
    p, _ = doctor(root, ())
    show("healthy", root)
    check("Container route" in p.stdout,
          "... the text report has the Container route section", p.stdout[-2000:])


def doctor_stale_and_fix(root):
    cw.update_driver(root, "nv_dispi.inf_amd64_77aa0c1e5d3b9f20")
    p, doc = doctor(root)
    rows = container_rows(doc)
    spec = rows.get("container.cdi-spec", {})
    check(spec.get("status") == "fail" and "stale" in spec.get("summary", "") and "77aa0c1e5d3b9f20" in spec.get("summary", ""),
          "doctor after a driver update: container.cdi-spec fails, stale, naming the new driver store", json.dumps(spec))
    show("stale spec", root)
    check(rows.get("container.gpu", {}).get("blocked_by") == "container.cdi-spec",
          "... and the GPU check is folded under it", json.dumps(rows.get("container.gpu")))
    p, _ = doctor(root, ("--fix", "--yes"))
    check(p.returncode == 0 and "tfwsl provision --profile /srv/ngc.yaml" in p.stdout + p.stderr,
          "doctor --fix --yes runs tfwsl provision for the profile and the doctor after it is clean",
          (p.stdout + p.stderr)[-3000:])
    rows = container_rows(doctor(root)[1])
    check(rows.get("container.cdi-spec", {}).get("status") == "ok", "... the spec is current again",
          json.dumps(rows.get("container.cdi-spec")))


def first_and_second_run(root):
    p, doc, elapsed = provision(root)
    steps = results(doc)
    check(p.returncode == 0 and doc and doc["recap"]["counts"]["failed"] == 0,
          f"the first run passes every step ({elapsed:.1f} s)", describe(p, doc))
    for sid in ("container.engine", "container.toolkit-repository", "container.toolkit", "container.cdi-spec",
                "container.image"):
        check(steps.get(sid, {}).get("result") == "changed", f"... {sid} changed", json.dumps(steps.get(sid)))
    verify = steps.get("container.verify", {})
    check(verify.get("result") == "ok" and "GPU:0" in verify.get("message", "") and "2.17.0" in verify.get("message", ""),
          "... container.verify: TensorFlow 2.17.0 in the image ran an op on GPU:0", json.dumps(verify))
    started = len(process_log(root))
    p, doc, elapsed = provision(root)
    check(p.returncode == 0 and doc and doc["recap"]["counts"]["changed"] == 0 and doc["recap"]["counts"]["failed"] == 0,
          f"the second run changes nothing ({elapsed:.1f} s)", describe(p, doc))
    again = process_log(root)[started:]
    check(not any(e["argv"][0] in ("apt-get", "dpkg", "nvidia-ctk") or e["argv"][:2] == ["podman", "pull"]
                  for e in again), "... and starts no apt, dpkg, nvidia-ctk or podman pull", json.dumps(again)[:1500])


def stale_spec(root):
    cw.update_driver(root, "nv_dispi.inf_amd64_0b7d11c4e2a9f850")
    p, doc, _ = provision(root, ["--check"])
    spec = results(doc).get("container.cdi-spec", {})
    check(spec.get("result") == "changed" and "stale" in spec.get("message", "")
          and cw.DEFAULT_STORE in spec.get("message", "") and "0b7d11c4e2a9f850" in spec.get("message", ""),
          "after a driver update --check finds the spec stale, naming the old and the new driver store",
          json.dumps(spec))
    p, doc, _ = provision(root)
    steps = results(doc)
    changed = sorted(s for s, r in steps.items() if r["result"] == "changed")
    check(p.returncode == 0 and changed == ["container.cdi-spec"] and steps["container.verify"]["result"] == "ok",
          "a run regenerates the spec only, and the GPU is back in the container", describe(p, doc))


def stopped_pull(root, ref):
    """A pull killed midway: the next run pulls again and finishes (the layers kept are not fetched again)."""
    cw.podman_as(root, USER, "rmi", "--force", ref)
    proc = subprocess.Popen(cw.enter_argv(root, "/usr/bin/env", "-i", f"PATH={cw.PATH}", *agent_argv()),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not any(e["argv"][:2] == ["podman", "pull"] for e in process_log(root)[-3:]):
        time.sleep(0.05)
    time.sleep(0.5)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    p, doc, _ = provision(root)
    steps = results(doc)
    check(p.returncode == 0 and steps.get("container.verify", {}).get("result") == "ok",
          "after a pull killed midway, the next run finishes it", describe(p, doc))


def timed(argv, runs=3):
    times = []
    for _ in range(runs):
        started = time.monotonic()
        subprocess.run(argv, capture_output=True, stdin=subprocess.DEVNULL, timeout=600)
        times.append(time.monotonic() - started)
    return statistics.median(times)


def pull_benchmark(root, ref):
    """The agent's container.image step against `podman pull` of the same image, each started the same
    way (root in the distro dropping to the user with a fixed environment, as the agent's steps are),
    the image removed before each run."""
    pw_env = ["PATH=" + cw.PATH, "HOME=/home/" + USER, "USER=" + USER, "LOGNAME=" + USER, "LANG=C.UTF-8"]
    uid = str(1000)

    def engine():
        cw.podman_as(root, USER, "rmi", "--force", ref)
        argv = cw.enter_argv(root, "/usr/bin/setpriv", f"--reuid={uid}", f"--regid={uid}", "--init-groups", "--",
                             "/usr/bin/env", "-i", *pw_env, "podman", "pull", ref)
        started = time.monotonic()
        p = subprocess.run(argv, capture_output=True, stdin=subprocess.DEVNULL, timeout=600)
        return time.monotonic() - started, p.returncode

    def tfwsl():
        """From the agent's own progress (--progress-json, read as it comes): container.image applying
        until the next step is checked, i.e. the pull and its re-check."""
        cw.podman_as(root, USER, "rmi", "--force", ref)
        argv = cw.enter_argv(root, "/usr/bin/env", "-i", f"PATH={cw.PATH}", *agent_argv(["--progress-json"]))
        proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                                text=True)
        started = ended = None
        for line in proc.stderr:
            event = json.loads(line).get("progress", {}) if line.startswith("{") else {}
            if event.get("step") == "container.image" and event.get("phase") == "applying" and started is None:
                started = time.monotonic()
            elif event.get("step") == "container.verify" and started is not None and ended is None:
                ended = time.monotonic()
        proc.wait(timeout=600)
        return (ended - started if started and ended else float("inf")), proc.returncode

    engine_runs = [engine() for _ in range(3)]
    tfwsl_runs = [tfwsl() for _ in range(3)]
    check(all(code == 0 for _, code in engine_runs + tfwsl_runs), "every timed pull succeeded",
          f"{engine_runs} {tfwsl_runs}")
    engine_s = statistics.median(t for t, _ in engine_runs)
    step_s = statistics.median(t for t, _ in tfwsl_runs)
    print(f"benchmark: podman pull {engine_s:.2f} s; the agent's container.image step {step_s:.2f} s "
          f"({(step_s / engine_s - 1) * 100:+.0f} %, medians of 3)")
    check(step_s <= engine_s * 1.10 + 0.3, "the agent's pull step is within 10 % of podman pull (plus 0.3 s of timer noise)",
          f"{step_s:.2f} s vs {engine_s:.2f} s")


def run(args):
    pristine = pc.cached_root(args.cache, args.mirror)
    work = tempfile.mkdtemp(prefix="tfwsl-container-provision-", dir="/var/tmp")
    try:
        root = cw.prepare_root(pristine, work, os.path.join(args.cache, "container"))
        shutil.copy2(args.agent, os.path.join(root, "usr/local/bin/tfwsl-agent"))
        shutil.copy2(args.tfwsl, os.path.join(root, "usr/local/bin/tfwsl"))
        with open(os.path.join(root, "etc/wsl.conf"), "w") as f:
            f.write("[user]\ndefault = tfuser\n")
        signed_toolkit_repository(root, work)
        cw.stand_in_wsl_gpu(root)
        fake_gpu(root, args.fake_gpu)
        port = cw.free_port()
        address = f"127.0.0.1:{port}"
        tar = cw.build_image_tar(pristine, os.path.join(args.cache, "container", "ngc-standin-rootfs.tar"))
        with cw.chroot_podman_world(root, USER, address), cw.Registry(port, os.path.join(work, "registry")):
            image = f"{address}/tfwsl/ngc-standin:25.02-tf2-py3"
            digest = cw.push_image(tar, image)
            write_profile(root, image, digest)
            ref = f"{address}/tfwsl/ngc-standin@{digest}"
            doctor_engine_missing(root)
            first_and_second_run(root)
            doctor_healthy(root)
            stale_spec(root)
            doctor_stale_and_fix(root)
            stopped_pull(root, ref)
            if args.benchmark and not failures:
                pull_benchmark(root, ref)
    finally:
        left = cw.mounts_under(work)
        if left:
            check(False, "mounts left under the work folder; not removing it", "\n".join(left))
        else:
            shutil.rmtree(work, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--agent", required=True)
    ap.add_argument("--tfwsl", required=True)
    ap.add_argument("--fake-gpu", required=True, help="the folder of the fake libcuda.so.1 and libnvidia-ml.so.1")
    ap.add_argument("--cache", required=True, help="the debootstrapped root and the podman .debs (kept)")
    ap.add_argument("--mirror", default=os.environ.get("TFWSL_DEBIAN_MIRROR", "http://deb.debian.org/debian"))
    ap.add_argument("--benchmark", action="store_true", help="also time the pull step against podman pull")
    ap.add_argument("--show", action="store_true", help="print the doctor's container rows in each state")
    args = ap.parse_args()
    if args.show:
        SHOW.append(True)
    if os.geteuid() != 0:
        print("skipped: needs root (mount namespaces, mknod, apt in the root)")
        return cw.SKIPPED
    for tool in ("debootstrap", "dpkg-deb", "apt-ftparchive", "podman", "docker-registry", "gpg", "gpg-agent", "gpgconf",
                 "unshare"):
        if not shutil.which(tool):
            print(f"skipped: {tool} is missing (scripts/install-deps.sh installs it)")
            return cw.SKIPPED
    # Rootless Podman needs a user namespace, which the kernel refuses to a process inside a chroot
    # (fresh-root-check runs the suite in one) or a container that forbids CLONE_NEWUSER.
    probe = subprocess.run(["unshare", "--user", "--map-root-user", "true"], capture_output=True, text=True)
    if probe.returncode != 0:
        print("SKIP: user namespaces are not permitted here (unshare --user: "
              f"{probe.stderr.strip() or probe.returncode}): rootless Podman cannot run")
        return cw.SKIPPED
    try:
        run(args)
    except Exception as e:  # noqa: BLE001 - reported as a failure, after the clean-up above
        check(False, f"the test stopped: {type(e).__name__}", str(e)[-2000:])
    if failures:
        print(f"{len(failures)} failure(s)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
