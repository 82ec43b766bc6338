#!/usr/bin/env python3
"""tfwsl-agent provision on a Blackwell GPU (issue 26, item 7): no stock TensorFlow wheel has kernels
for compute capability 12.0, so provision refuses the profile's pip plan before any step runs, and
names the way that works (NVIDIA's TensorFlow container). The machine is the Wine tests' fake distro
(tests/wsl_standin/fake_distro) with the fake GPU libraries (tests/wsl_standin/fake_libcuda.cpp)
answering as an RTX 5090, observed through a probe root (TFWSL_PROBE_ROOT), so no root is needed and
nothing on this machine is touched. An Ampere GPU in the same world is not refused.
Exit 0: all passed; 1: a failure (printed)."""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile

failures = []


def check(condition, what, detail=""):
    print(("ok: " if condition else "FAILED: ") + what)
    if not condition:
        failures.append(what)
        if detail:
            print("    " + detail.strip().replace("\n", "\n    ")[-1500:])


def world(fake_distro, fake_gpu, into):
    shutil.copytree(fake_distro, into, symlinks=True, dirs_exist_ok=True)
    os.makedirs(os.path.join(into, "usr/lib/wsl/lib"), exist_ok=True)
    for lib in ("libcuda.so.1", "libnvidia-ml.so.1"):
        shutil.copy2(os.path.join(fake_gpu, lib), os.path.join(into, "usr/lib/wsl/lib", lib))
    os.makedirs(os.path.join(into, "home/me"), exist_ok=True)
    with open(os.path.join(into, "etc/passwd"), "w", encoding="utf-8") as f:
        f.write("root:x:0:0:root:/root:/bin/bash\nme:x:1000:1000::/home/me:/bin/bash\n")
    with open(os.path.join(into, "etc/group"), "w", encoding="utf-8") as f:
        f.write("root:x:0:\nme:x:1000:\n")


def provision_check(agent, root, gpu_name, cc):
    env = dict(os.environ, TFWSL_PROBE_ROOT=root, TFWSL_FAKE_GPU_NAME=gpu_name, TFWSL_FAKE_CC=cc)
    return subprocess.run([agent, "provision", "--check", "--user", "me"], capture_output=True, text=True,
                          timeout=120, env=env)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--agent", required=True)
    ap.add_argument("--fake-distro", required=True)
    ap.add_argument("--fake-gpu", required=True)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="tfwsl-blackwell-") as work:
        root = os.path.join(work, "distro")
        world(a.fake_distro, a.fake_gpu, root)
        before = sorted(os.listdir(root))
        r = provision_check(a.agent, root, "NVIDIA GeForce RTX 5090", "12.0")
        said = r.stdout + r.stderr
        check(r.returncode == 2, "an RTX 5090: provision exits 2", said)
        check("refused, nothing installed: NVIDIA GeForce RTX 5090 (12.0): no pip TensorFlow runs on it" in r.stderr,
              "... refusing the pip plan by the GPU's name and compute capability", said)
        check("docker run --rm --gpus all nvcr.io/nvidia/tensorflow" in r.stderr, "... with NVIDIA's container as the way",
              said)
        check("dpkg.health" not in said and "recap:" not in said, "... before any step ran", said)
        check(sorted(os.listdir(root)) == before, "... and nothing was written in the distro")
        ampere = provision_check(a.agent, root, "NVIDIA GeForce RTX 3080", "8.6")
        check("refused" not in ampere.stderr and "recap:" in ampere.stdout, "an RTX 3080 in the same world: the steps are checked",
              ampere.stdout + ampere.stderr)
    print(f"{len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
