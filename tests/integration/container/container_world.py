#!/usr/bin/env python3
"""The container route's test world: rootless Podman in a Debian bookworm chroot that stands in for a WSL distro.

What it needs (run as root): debootstrap (the cached pristine root, see provision_chroot.py), dpkg-deb and
apt-ftparchive (apt-utils), chroot and mount (util-linux), and on the HOST podman (import and push only, as
root), docker-registry (a registry on 127.0.0.1). Debian packages scripts/install-deps.sh must add for it:
podman, docker-registry (debootstrap and apt-utils are there already for the provisioning test). The chroot
gets its own podman, runc and uidmap from REAL Debian .debs, downloaded once into the cache (needs Debian's
archive once, then offline); see podman_debs.

Pieces, each usable alone from another test script:
  podman_debs(cache, pristine)            Debian's podman + runc + uidmap and their closure (.debs, cached)
  standin_toolkit_debs(out_dir)           stand-in nvidia-container-toolkit(-base) 1.18.1: nvidia-ctk, nvidia-cdi-hook
  stand_in_wsl_gpu(root) / update_driver  what WSL puts in a distro: /dev/dxg, /usr/lib/wsl/{lib,drivers/<store>}
  build_image_tar(pristine, out_tar)      a rootfs tar (for `podman import`): python3 + stand-in tensorflow 2.17.0
  Registry(port, folder) / push_image     Debian's docker-registry on loopback; push by the host's podman -> digest
  chroot_podman_world(root, user, reg)    mounts, subuid, containers.conf, registries.conf: rootless podman works
  enter_argv(root, *argv[, userspec])     argv running a command "in the chroot" -- use it, not chroot(8), for the
                                          agent too: see below
  podman_as(root, user, *args)            runs podman in the root as the user (rootless), as the agent would

Not a plain chroot: the kernel refuses CLONE_NEWUSER to a chrooted process, so rootless podman under chroot(8)
fails with "cannot clone: Operation not permitted / Error: cannot re-exec process". enter_argv runs the command
in a new mount namespace whose / IS the root (unshare -m + pivot_root; / made rshared as podman wants), so the
agent and its `runuser`/`setpriv` podman runs work. runuser -u tfuser -- podman ... works without
XDG_RUNTIME_DIR (podman finds /run/user/UID, which the world mounts).

The world's containers.conf (not tfwsl's argv) carries what this machine needs and a real WSL does not:
runtime runc (crun refuses the hybrid cgroups here), cgroup_manager cgroupfs, events_logger file, netns none.

Self-check: `container_world.py [--cache DIR]` (root). Prints ok/FAILED lines; exit 0 passed, 1 failed,
77 skipped (not root, or a tool missing).
"""
import contextlib
import glob
import hashlib
import os
import pwd
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "provision"))
import standin_packages as sp  # noqa: E402

SKIPPED = 77
PODMAN_PACKAGES = ("podman", "runc", "uidmap", "slirp4netns")  # the agent's container.engine asks for all but runc
TOOLKIT_VERSION = "1.18.1"
TOOLKIT_COMMIT = "efe99418ef87500dbe059cadc9ab418b2815b9d5"  # NVIDIA/nvidia-container-toolkit tag v1.18.1
DEFAULT_STORE = "nv_dispi.inf_amd64_5a1e9d2c0f7b4e31"
TF_VERSION = "2.17.0"
PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"


def run(argv, timeout=600, **kw):
    """subprocess.run with the output captured and a clear error, so a failing step says what failed."""
    p = subprocess.run(argv, capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=timeout, **kw)
    if p.returncode != 0:
        raise RuntimeError(f"{argv} exited {p.returncode}:\n{p.stdout[-1500:]}\n{p.stderr[-1500:]}")
    return p


# ---------------------------------------------------------------------------------------------- 1. podman .debs

def podman_debs(cache, pristine_root):
    """Debian's real podman, runc and uidmap .debs with the closure the pristine root lacks, downloaded once.

    apt in a throwaway copy of the pristine root resolves them against the root's own Debian sources, so
    the set is exactly what the test's offline local repository must hold for `apt-get install podman` (the
    agent's step) to run for real. runc is in the set and crun is not: podman depends on `crun | runc`, and
    crun refuses this machine's hybrid cgroups. No recommends: apt skips recommends that the repo lacks.
    """
    dest = os.path.join(cache, "podman-debs")
    marker = os.path.join(dest, ".complete")
    wanted = os.path.join(dest, ".packages")
    if os.path.exists(marker) and os.path.exists(wanted) and open(wanted).read() == " ".join(PODMAN_PACKAGES):
        return [os.path.join(dest, n) for n in open(marker).read().split()]
    work = tempfile.mkdtemp(prefix="tfwsl-podman-debs-", dir="/var/tmp")
    try:
        root = os.path.join(work, "root")
        run(["cp", "-a", pristine_root, root])
        shutil.copy2("/etc/resolv.conf", os.path.join(root, "etc/resolv.conf"))
        run(["chroot", root, "apt-get", "clean"])  # debootstrap leaves its own .debs in the archives folder
        run(["chroot", root, "apt-get", "update"])
        run(["chroot", root, "apt-get", "install", "-y", "--download-only", "--no-install-recommends", *PODMAN_PACKAGES])
        debs = sorted(glob.glob(os.path.join(root, "var/cache/apt/archives/*.deb")))
        os.makedirs(dest, exist_ok=True)
        for deb in debs:
            shutil.copy2(deb, dest)
        names = [os.path.basename(d) for d in debs]
        with open(marker, "w") as f:
            f.write("\n".join(names) + "\n")
        with open(wanted, "w") as f:
            f.write(" ".join(PODMAN_PACKAGES))
        return [os.path.join(dest, n) for n in names]
    finally:
        shutil.rmtree(work, ignore_errors=True)


# ------------------------------------------------------------------------------------- 2. stand-in toolkit .debs

NVIDIA_CTK = r'''#!/usr/bin/python3
"""Stand-in nvidia-ctk 1.18.1 (and nvidia-cdi-hook, by the name it is run as) for the tfwsl container test.

`cdi generate` writes the spec the real toolkit writes in WSL mode, shape taken from
NVIDIA/nvidia-container-toolkit at tag v1.18.1 (commit efe99418ef87500dbe059cadc9ab418b2815b9d5):
pkg/nvcdi/lib-wsl.go (one device "all"; common edits from the driver discoverer), pkg/nvcdi/device-wsl.go
(deviceNodes /dev/dxg, hostPath left out when equal: internal/edits/device.go), pkg/nvcdi/driver-wsl.go
(requiredDriverStoreFiles, searched in the dxcore driver store paths then /usr/lib/wsl/lib, first match each;
the create-symlinks hook <store>/nvidia-smi::/usr/bin/nvidia-smi; the update-ldcache hook with a --folder
per library folder: internal/discover/ldconfig.go), internal/discover/mounts.go (options ro, nosuid, nodev,
rbind, rprivate), internal/discover/hooks.go (createContainer, /usr/bin/nvidia-cdi-hook, argv[0]
nvidia-cdi-hook, env NVIDIA_CTK_DEBUG=false), pkg/nvcdi/wrapper.go (env NVIDIA_VISIBLE_DEVICES=void),
pkg/nvcdi/transform/sorter.go (mounts by path depth, then path), cdiVersion: the minimum the CDI library's
specs-go/version.go requires for this content (0.3.0), written by gopkg.in/yaml.v3 after "---"
(vendor/tags.cncf.io/container-device-interface/pkg/cdi/spec.go). internal/dxcore reads the adapters' driver
store paths from the Windows driver through libdxcore.so; here: the folders under /usr/lib/wsl/drivers that
hold libcuda.so.1.1, and libdxcore.so must exist in /usr/lib/wsl/lib ("failed to initialize dxcore" otherwise).

nvidia-cdi-hook (cmd/nvidia-cdi-hook): create-symlinks is done for real in the container root named by the
OCI state on stdin; update-ldcache only writes /etc/ld.so.conf.d/00-nvcr-standin.conf there and runs no
ldconfig (the stand-in driver files are not ELF). Unknown hooks warn and exit 0, as the real CLI does.
"""
import datetime
import glob
import json
import os
import sys

VERSION = "1.18.1"
COMMIT = "efe99418ef87500dbe059cadc9ab418b2815b9d5"
REQUIRED = ["libcuda.so.1.1", "libcuda_loader.so", "libnvidia-ptxjitcompiler.so.1", "libnvidia-ml.so.1",
            "libnvidia-ml_loader.so", "libdxcore.so", "libnvdxgdmal.so.1", "nvcubins.bin", "nvidia-smi"]
OPTIONS = ["ro", "nosuid", "nodev", "rbind", "rprivate"]
HOOK = "/usr/bin/nvidia-cdi-hook"
SPEC_DIRS = ["/etc/cdi", "/var/run/cdi"]


def log(level, msg):
    stamp = datetime.datetime.now().astimezone().isoformat(timespec="seconds")
    sys.stderr.write(f'time="{stamp}" level={level} msg="{msg}"\n')


def fail(msg):
    log("error", msg)
    sys.exit(1)


def options(argv, known):
    """--name=value and --name value, as urfave/cli takes them; anything else is an error."""
    got, i = {}, 0
    while i < len(argv):
        arg = argv[i]
        name, _, value = arg.partition("=")
        if name not in known:
            fail(f"flag provided but not defined: {name}")
        if not value:
            i += 1
            if i >= len(argv):
                fail(f"flag needs an argument: {name}")
            value = argv[i]
        got[known[name]] = value
        i += 1
    return got


def driver_stores():
    """What dxcore answers on WSL: the adapters' driver store folders (here: those holding libcuda.so.1.1)."""
    if not os.path.exists("/usr/lib/wsl/lib/libdxcore.so"):
        fail("failed to generate CDI spec: failed to create edits common for entities: failed to create discoverer "
             "for WSL driver: failed to initialize dxcore: failed to initialize dxcore context")
    stores = sorted(os.path.dirname(p) for p in glob.glob("/usr/lib/wsl/drivers/*/libcuda.so.1.1"))
    if not stores:
        fail("failed to generate CDI spec: failed to create edits common for entities: failed to create discoverer "
             "for WSL driver: no driver store paths found")
    if len(stores) > 1:
        log("warning", f"Found multiple driver store paths: [{' '.join(stores)}]")
    log("info", f"Using WSL driver store paths: [{' '.join(stores)}]")
    return stores


def located(stores):
    found = []
    for name in REQUIRED:
        hits = [os.path.join(d, name) for d in stores + ["/usr/lib/wsl/lib"] if os.path.exists(os.path.join(d, name))]
        if not hits:
            log("warning", f"Could not locate {name}: pattern {name} not found")
            continue
        log("info", f"Selecting {hits[0]} as {hits[0]}")
        found.append(hits[0])
    return found


def is_lib(path):
    base = os.path.basename(path)
    if not (base.startswith("lib") and ".so" in base[4:]):
        return False
    tail = base.split(".so")[-1]
    return tail == "" or tail.startswith(".")


def wsl_spec():
    if not os.path.exists("/dev/dxg"):
        log("warning", "Could not locate /dev/dxg: pattern /dev/dxg not found")
        fail('failed to generate CDI spec: failed to save CDI spec: invalid device "all": device "all" has '
             'no container edits (stand-in: no /dev/dxg)')
    log("info", "Selecting /dev/dxg as /dev/dxg")
    files = located(driver_stores())
    folders = []
    for f in files:
        if is_lib(f) and os.path.dirname(f) not in folders:
            folders.append(os.path.dirname(f))
    hooks = []
    smi = [f for f in files if os.path.basename(f) == "nvidia-smi"]
    if smi:
        hooks.append(["nvidia-cdi-hook", "create-symlinks", "--link", smi[0] + "::/usr/bin/nvidia-smi"])
    ld = ["nvidia-cdi-hook", "update-ldcache"]
    for folder in folders:
        ld += ["--folder", folder]
    hooks.append(ld)
    mounts = sorted(files, key=lambda p: (os.path.normpath(p).count("/"), p))
    return render(hooks, mounts)


def render(hooks, mounts):
    """The text gopkg.in/yaml.v3 writes for this spec (4-space indent, as the real file has)."""
    out = ["---", "cdiVersion: 0.3.0", "kind: nvidia.com/gpu", "devices:", "    - name: all", "      containerEdits:",
           "        deviceNodes:", "            - path: /dev/dxg"]
    out += ["containerEdits:", "    env:", "        - NVIDIA_VISIBLE_DEVICES=void", "    hooks:"]
    for args in hooks:
        out += ["        - hookName: createContainer", f"          path: {HOOK}", "          args:"]
        out += [f"            - {a}" for a in args]
        out += ["          env:", "            - NVIDIA_CTK_DEBUG=false"]
    out.append("    mounts:")
    for m in mounts:
        out += [f"        - hostPath: {m}", f"          containerPath: {m}", "          options:"]
        out += [f"            - {o}" for o in OPTIONS]
    return "\n".join(out) + "\n"


def cdi_generate(argv):
    known = {"--output": "output", "--mode": "mode", "--discovery-mode": "mode", "--format": "format"}
    opts = options(argv, known)
    mode = opts.get("mode", "auto").lower()
    if opts.get("format", "yaml") != "yaml":
        fail(f"stand-in nvidia-ctk: only --format=yaml is stood in (asked {opts['format']})")
    if mode == "auto":
        mode = "wsl" if os.path.exists("/dev/dxg") else "nvml"
        log("info", f"Auto-detected mode as '{mode}'")
    if mode != "wsl":
        fail(f"failed to generate CDI spec: failed to create device CDI specs: failed to initialize NVML: "
             f"ERROR_LIBRARY_NOT_FOUND (stand-in: mode {mode} is not stood in)")
    text = wsl_spec()
    output = opts.get("output", "")
    if not output:
        sys.stdout.write(text)
    else:
        if not output.endswith((".yaml", ".json")):
            output += ".yaml"
        os.makedirs(os.path.dirname(os.path.abspath(output)), exist_ok=True)
        tmp = output + ".tmp"
        with open(tmp, "w") as f:
            f.write(text)
        os.chmod(tmp, 0o644)
        os.rename(tmp, output)
    log("info", "Generated CDI spec with version 0.3.0")


def cdi_list(argv):
    if argv:
        fail(f"flag provided but not defined: {argv[0]}")
    devices = []
    for folder in SPEC_DIRS:
        for path in sorted(glob.glob(os.path.join(folder, "*.yaml"))):
            kind, names = "", []
            for line in open(path):
                if line.startswith("kind:"):
                    kind = line.split(":", 1)[1].strip()
                elif line.strip().startswith("- name:"):
                    names.append(line.split(":", 1)[1].strip().strip('"'))
            devices += [f"{kind}={n}" for n in names]
    log("info", f"Found {len(devices)} CDI devices")
    for d in devices:
        print(d)


def container_root():
    state = json.load(sys.stdin)
    bundle = state["bundle"]
    config = json.load(open(os.path.join(bundle, "config.json")))
    root = config["root"]["path"]
    return root if os.path.isabs(root) else os.path.join(bundle, root)


def hook(argv):
    if not argv:
        fail("stand-in nvidia-cdi-hook: no hook named")
    name, rest = argv[0], argv[1:]
    if name == "create-symlinks":
        root = container_root()
        links = [rest[i + 1] for i in range(len(rest) - 1) if rest[i] == "--link"]
        for spec in links:
            target, link = spec.split("::")
            path = os.path.join(root, link.lstrip("/"))
            os.makedirs(os.path.dirname(path), exist_ok=True)
            if os.path.lexists(path):
                os.remove(path)
            os.symlink(target, path)
    elif name == "update-ldcache":
        root = container_root()
        folders = [rest[i + 1] for i in range(len(rest) - 1) if rest[i] == "--folder"]
        conf = os.path.join(root, "etc/ld.so.conf.d")
        os.makedirs(conf, exist_ok=True)
        with open(os.path.join(conf, "00-nvcr-standin.conf"), "w") as f:
            f.write("".join(d + "\n" for d in folders))
    else:
        log("warning", f"Unsupported hook '{name}'")


def main(argv):
    if os.path.basename(argv[0]) == "nvidia-cdi-hook":
        return hook(argv[1:])
    args = argv[1:]
    if args in (["--version"], ["-v"]):
        print(f"NVIDIA Container Toolkit CLI version {VERSION}\ncommit: {COMMIT}")
    elif args[:2] == ["cdi", "generate"]:
        cdi_generate(args[2:])
    elif args[:2] == ["cdi", "list"]:
        cdi_list(args[2:])
    elif args[:1] == ["hook"]:
        hook(args[1:])
    else:
        fail(f"stand-in nvidia-ctk: unsupported arguments: {' '.join(args) or '(none)'}")


if __name__ == "__main__":
    main(sys.argv)
'''


def standin_toolkit_debs(out_dir):
    """nvidia-container-toolkit-base (nvidia-ctk, nvidia-cdi-hook) and nvidia-container-toolkit 1.18.1-1 stand-ins.

    The names and the base/toolkit split are NVIDIA's; the CDI hooks run in the distro (the runtime namespace),
    so base ships the stand-in /usr/bin/nvidia-cdi-hook the generated spec names. Returns the two .deb paths.
    """
    work = tempfile.mkdtemp(prefix="tfwsl-toolkit-debs-", dir="/var/tmp")
    try:
        version = TOOLKIT_VERSION + "-1"
        base = sp._deb(work, "nvidia-container-toolkit-base", version,
                       {"/usr/bin/nvidia-ctk": NVIDIA_CTK, "/usr/bin/nvidia-cdi-hook": NVIDIA_CTK})
        for tool in ("nvidia-ctk", "nvidia-cdi-hook"):
            os.chmod(os.path.join(base, "usr/bin", tool), 0o755)
        toolkit = sp._deb(work, "nvidia-container-toolkit", version,
                          {"/usr/share/doc/nvidia-container-toolkit/README.standin": "stand-in, see nvidia-ctk\n"},
                          depends=f"nvidia-container-toolkit-base (= {version}), python3")
        sp._build(base, out_dir)
        sp._build(toolkit, out_dir)
        return [os.path.join(out_dir, f"{name}_{version}_all.deb")
                for name in ("nvidia-container-toolkit-base", "nvidia-container-toolkit")]
    finally:
        shutil.rmtree(work, ignore_errors=True)


# ------------------------------------------------------------------------------------------ 3. the WSL GPU files

DRIVER_STORE_FILES = ("libcuda.so.1.1", "libcuda_loader.so", "libnvidia-ptxjitcompiler.so.1", "libnvidia-ml.so.1",
                      "libnvidia-ml_loader.so", "libnvdxgdmal.so.1", "nvcubins.bin")
WSL_LIB_FILES = ("libcuda.so", "libcuda.so.1", "libcuda.so.1.1", "libdxcore.so", "libd3d12.so", "libnvidia-ml.so.1")
NVIDIA_SMI = """#!/bin/sh
# stand-in nvidia-smi (what WSL's driver store holds): the header of a real one
cat <<'EOF'
+-----------------------------------------------------------------------------------------+
| NVIDIA-SMI 570.86.16              Driver Version: 572.16         CUDA Version: 12.8     |
|-----------------------------------------+------------------------+----------------------+
| GPU  Name                 Persistence-M | Bus-Id          Disp.A | Volatile Uncorr. ECC |
|   0  NVIDIA GeForce RTX 4070        On  |   00000000:01:00.0  On |                  N/A |
+-----------------------------------------+------------------------+----------------------+
EOF
"""


def _write(path, text, mode=0o644):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
    os.chmod(path, mode)


def stand_in_wsl_gpu(root, store=DEFAULT_STORE):
    """What WSL gives a distro for the GPU: /dev/dxg, /usr/lib/wsl/lib and the driver store folder.

    /dev/dxg is a real char node (1:3, /dev/null's numbers) because rootless podman bind-mounts the host's
    node into the container. Returns the store folder (as the distro sees it).
    """
    dxg = os.path.join(root, "dev/dxg")
    if not os.path.exists(dxg):
        os.mknod(dxg, 0o666 | 0o020000, os.makedev(1, 3))
    os.chmod(dxg, 0o666)
    for name in WSL_LIB_FILES:
        _write(os.path.join(root, "usr/lib/wsl/lib", name), f"stand-in {name} (WSL)\n", 0o555)
    _write(os.path.join(root, "usr/lib/wsl/lib/nvidia-smi"), NVIDIA_SMI, 0o555)
    folder = os.path.join(root, "usr/lib/wsl/drivers", store)
    for name in DRIVER_STORE_FILES:
        _write(os.path.join(folder, name), f"stand-in {name} ({store})\n", 0o555)
    _write(os.path.join(folder, "nvidia-smi"), NVIDIA_SMI, 0o555)
    return "/usr/lib/wsl/drivers/" + store


def update_driver(root, new_store):
    """A Windows driver update: the driver store folder gets a new name, so a generated spec goes stale."""
    drivers = os.path.join(root, "usr/lib/wsl/drivers")
    old = [d for d in os.listdir(drivers) if os.path.exists(os.path.join(drivers, d, "libcuda.so.1.1"))]
    if len(old) != 1:
        raise RuntimeError(f"update_driver: expected one driver store in {drivers}, found {old}")
    os.rename(os.path.join(drivers, old[0]), os.path.join(drivers, new_store))
    return "/usr/lib/wsl/drivers/" + new_store


# ------------------------------------------------------------------------------------------------ 4. the image

TENSORFLOW_INIT = '''"""Stand-in TensorFlow 2.17.0 in the stand-in NGC image (tfwsl container test).

Same surface as tests/integration/provision/standin_packages.py's stand-in (config.list_physical_devices
with .name, sysconfig.get_build_info, device scopes), plus the few ops a GPU check uses. A GPU is seen only
when the container has /dev/dxg AND a driver store libcuda.so.1.1 is mounted under /usr/lib/wsl/drivers/*/
(what the CDI spec's edits give it). As in real TF 2.x eager, soft device placement is on by default: an op
asked for /GPU:0 without a GPU runs on the CPU (see .device); with tf.config.set_soft_device_placement(False)
it raises InvalidArgumentError "Could not satisfy device specification ...".
"""
import glob as _glob
import os as _os
import random as _random
import sys as _sys

from tensorflow.python.framework import errors_impl as _errors

__version__ = "2.17.0"
errors = _errors

_CPU = "/job:localhost/replica:0/task:0/device:CPU:0"
_GPU = "/job:localhost/replica:0/task:0/device:GPU:0"


def _has_gpu():
    return _os.path.exists("/dev/dxg") and bool(_glob.glob("/usr/lib/wsl/drivers/*/libcuda.so.1.1"))


if not _has_gpu():
    _sys.stderr.write("2026-12-01 17:00:00.000000: I external/local_xla/xla/tsl/cuda/cudart_stub.cc:32] Could not find "
                      "cuda drivers on your machine, GPU will not be used.\\n")


class PhysicalDevice:
    def __init__(self, name, device_type):
        self.name, self.device_type = name, device_type

    def __repr__(self):
        return f"PhysicalDevice(name='{self.name}', device_type='{self.device_type}')"

    __str__ = __repr__


class _Config:
    soft_placement = True

    @staticmethod
    def list_physical_devices(device_type=None):
        found = [PhysicalDevice("/physical_device:CPU:0", "CPU")]
        if _has_gpu():
            found.append(PhysicalDevice("/physical_device:GPU:0", "GPU"))
        return [d for d in found if device_type in (None, d.device_type)]

    @staticmethod
    def set_soft_device_placement(enabled):
        _Config.soft_placement = bool(enabled)

    @staticmethod
    def get_soft_device_placement():
        return _Config.soft_placement


class _Sysconfig:
    @staticmethod
    def get_build_info():
        return {"cuda_version": "12.5.1", "cudnn_version": "9", "is_cuda_build": True,
                "cuda_compute_capabilities": ["sm_60", "sm_70", "sm_80", "sm_89", "compute_90"]}


_scopes = []


class _DeviceScope:
    def __init__(self, name):
        self.name = name

    def __enter__(self):
        _scopes.append(self.name)
        return self

    def __exit__(self, *exc):
        _scopes.pop()
        return False


def _placed(op):
    asked = _scopes[-1].upper() if _scopes else ""
    if "GPU" not in asked:
        return _GPU if _has_gpu() and not _scopes else _CPU
    if _has_gpu():
        return _GPU
    if _Config.soft_placement:
        return _CPU
    raise _errors.InvalidArgumentError(
        None, None, f"Could not satisfy device specification '{_GPU}'. enable_soft_placement=0. Supported device "
        f"types [CPU]. All available devices [{_CPU}]. [Op:{op}]")


class Tensor:
    def __init__(self, values, shape, device):
        self._values, self.shape, self.device = values, tuple(shape), device

    def numpy(self):
        return self._values[0] if not self.shape else list(self._values)

    def __repr__(self):
        body = self._values[0] if not self.shape else "..."
        return f"tf.Tensor({body}, shape={self.shape}, dtype=float32)"

    __str__ = __repr__


class _Random:
    @staticmethod
    def normal(shape, mean=0.0, stddev=1.0):
        device = _placed("RandomStandardNormal")
        count = 1
        for n in shape:
            count *= n
        return Tensor([_random.gauss(mean, stddev) for _ in range(count)], shape, device)

    uniform = staticmethod(lambda shape, minval=0.0, maxval=1.0: Tensor(
        [_random.uniform(minval, maxval) for _ in range(_count(shape))], shape, _placed("RandomUniform")))


def _count(shape):
    count = 1
    for n in shape:
        count *= n
    return count


def reduce_sum(t):
    return Tensor([float(sum(t._values))], (), _placed("Sum"))


def device(name):
    return _DeviceScope(name)


config = _Config()
sysconfig = _Sysconfig()
random = _Random()
'''

ERRORS_IMPL = '''"""Stand-in tensorflow.python.framework.errors_impl: the names tracebacks print."""


class OpError(Exception):
    def __init__(self, node_def, op, message, *args):
        super().__init__(message)
        self.node_def, self.op, self.message = node_def, op, message


class InvalidArgumentError(OpError):
    pass
'''

IMAGE_DROP = ("usr/share/doc", "usr/share/man", "usr/share/info", "usr/share/locale", "usr/share/python-wheels",
              "var/cache/apt", "var/lib/apt/lists", "var/cache/debconf")


def _image_key(pristine_root):
    """The cache key: the stand-in TF's sources and the pristine root's identity (its cache marker)."""
    h = hashlib.sha256((TENSORFLOW_INIT + ERRORS_IMPL + repr(IMAGE_DROP)).encode())
    marker = os.path.join(pristine_root, ".tfwsl-cache-ok")
    h.update(f"{pristine_root}:{os.stat(marker).st_mtime_ns if os.path.exists(marker) else 0}".encode())
    return h.hexdigest()


def _tensorflow_files(site):
    _write(os.path.join(site, "tensorflow/__init__.py"), TENSORFLOW_INIT)
    for pkg in ("python", "python/framework"):
        _write(os.path.join(site, "tensorflow", pkg, "__init__.py"), "")
    _write(os.path.join(site, "tensorflow/python/framework/errors_impl.py"), ERRORS_IMPL)
    _write(os.path.join(site, f"tensorflow-{TF_VERSION}.dist-info/METADATA"),
           f"Metadata-Version: 2.1\nName: tensorflow\nVersion: {TF_VERSION}\n")
    _write(os.path.join(site, f"tensorflow-{TF_VERSION}.dist-info/INSTALLER"), "pip\n")


def build_image_tar(pristine_root, out_tar):
    """A rootfs tar for `podman import`: the pristine root (python3) with the stand-in tensorflow, made once.

    Stands for NGC's TensorFlow image; docs, locales and apt caches are left out to keep push and pull quick.
    Reused while its key (TF sources + the pristine root's marker) is unchanged.
    """
    key = _image_key(pristine_root)
    if os.path.exists(out_tar) and os.path.exists(out_tar + ".key") and open(out_tar + ".key").read() == key:
        return out_tar
    work = tempfile.mkdtemp(prefix="tfwsl-image-", dir="/var/tmp")
    try:
        root = os.path.join(work, "root")
        run(["cp", "-a", pristine_root, root])
        for path in IMAGE_DROP:
            shutil.rmtree(os.path.join(root, path), ignore_errors=True)
        for path in ("dev", "proc", "sys", "tmp", "run"):
            shutil.rmtree(os.path.join(root, path), ignore_errors=True)
            os.makedirs(os.path.join(root, path))
        os.chmod(os.path.join(root, "tmp"), 0o1777)
        _tensorflow_files(os.path.join(root, "usr/local/lib/python3.11/dist-packages"))
        os.makedirs(os.path.dirname(os.path.abspath(out_tar)), exist_ok=True)
        run(["tar", "--numeric-owner", "-C", root, "-cf", out_tar + ".tmp", "."])
        os.rename(out_tar + ".tmp", out_tar)
        with open(out_tar + ".key", "w") as f:
            f.write(key)
        return out_tar
    finally:
        shutil.rmtree(work, ignore_errors=True)


# ------------------------------------------------------------------------------------ 5. registry and the push

REGISTRY_CONFIG = """version: 0.1
storage:
  filesystem:
    rootdirectory: {folder}
http:
  addr: 127.0.0.1:{port}
"""


class Registry:
    """Debian's docker-registry on 127.0.0.1:port, storing under folder; ready when /v2/ answers."""

    def __init__(self, port, folder):
        self.port, self.folder, self.proc = port, folder, None
        self.address = f"127.0.0.1:{port}"

    def __enter__(self):
        os.makedirs(self.folder, exist_ok=True)
        config = os.path.join(self.folder, "config.yml")
        with open(config, "w") as f:
            f.write(REGISTRY_CONFIG.format(folder=os.path.join(self.folder, "data"), port=self.port))
        self.log = open(os.path.join(self.folder, "registry.log"), "w")
        self.proc = subprocess.Popen(["docker-registry", "serve", config], stdout=self.log, stderr=subprocess.STDOUT,
                                     stdin=subprocess.DEVNULL)
        self._wait()
        return self

    def _wait(self, seconds=30):
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"docker-registry exited {self.proc.returncode}: see {self.log.name}")
            try:
                with urllib.request.urlopen(f"http://{self.address}/v2/", timeout=2) as r:
                    if r.status == 200:
                        return
            except OSError:
                time.sleep(0.2)
        raise RuntimeError(f"docker-registry did not answer on {self.address} in {seconds} s")

    def __exit__(self, *exc):
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log.close()
        return False


def push_image(tar, ref):
    """Imports the rootfs tar with the HOST's podman (root, a throwaway storage) and pushes it to ref.

    Returns the manifest digest ("sha256:<64 hex>") that `podman push --digestfile` reports: what a pull by
    digest (REF@sha256:...) names. The storage is temporary so the host's own podman images are left alone.
    """
    store = tempfile.mkdtemp(prefix="tfwsl-push-", dir="/var/tmp")
    try:
        base = ["podman", "--root", os.path.join(store, "root"), "--runroot", os.path.join(store, "run"),
                "--storage-driver", "vfs", "--cgroup-manager", "cgroupfs", "--events-backend", "file"]
        run(base + ["import", "--change", 'CMD ["python3"]', tar, "localhost/tfwsl/ngc-standin-import:latest"])
        digestfile = os.path.join(store, "digest")
        run(base + ["push", "--tls-verify=false", "--digestfile", digestfile,
                    "localhost/tfwsl/ngc-standin-import:latest", ref])
        return open(digestfile).read().strip()
    finally:
        subprocess.run(["rm", "-rf", store], capture_output=True)


# ------------------------------------------------------------------------------- 6. rootless podman in the chroot

CONTAINERS_CONF = """# tfwsl test world: what this machine needs and a real WSL distro does not (never tfwsl's argv)
[containers]
netns = "none"

[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
events_logger = "file"
"""

REGISTRIES_CONF = """# tfwsl test world: the loopback registry speaks plain http
[[registry]]
location = "{address}"
insecure = true
"""


def _mount(mounted, *argv):
    """mount, remembering the target so the exit unmounts it even when a later step fails."""
    run(["mount", *argv])
    mounted.append(argv[-1])


def _user_files(root, user, registry):
    """subuid/subgid ranges, /run/user/UID and the user's containers.conf (+ registries drop-in)."""
    pw = _user(root, user)
    for name in ("etc/subuid", "etc/subgid"):
        path = os.path.join(root, name)
        lines = open(path).read().splitlines() if os.path.exists(path) else []
        if not any(line.split(":")[0] == user for line in lines):
            with open(path, "a") as f:
                f.write(f"{user}:100000:65536\n")
    run_dir = os.path.join(root, "run/user", str(pw.pw_uid))
    os.makedirs(run_dir, exist_ok=True)
    os.chown(run_dir, pw.pw_uid, pw.pw_gid)
    os.chmod(run_dir, 0o700)
    conf = os.path.join(root, pw.pw_dir.lstrip("/"), ".config/containers")
    _write(os.path.join(conf, "containers.conf"), CONTAINERS_CONF)
    if registry:
        _write(os.path.join(conf, "registries.conf.d/50-tfwsl-test.conf"), REGISTRIES_CONF.format(address=registry))
    for d, _, files in os.walk(os.path.join(root, pw.pw_dir.lstrip("/"), ".config")):
        for p in [d] + [os.path.join(d, f) for f in files]:
            os.chown(p, pw.pw_uid, pw.pw_gid)


def _user(root, user):
    """The user's passwd entry as the ROOT's /etc/passwd has it (the host may differ)."""
    for line in open(os.path.join(root, "etc/passwd")):
        f = line.rstrip("\n").split(":")
        if f[0] == user:
            return pwd.struct_passwd((f[0], f[1], int(f[2]), int(f[3]), f[4], f[5], f[6]))
    raise KeyError(f"{user} is not in {root}/etc/passwd")


MARKER = ".tfwsl-container-world"  # in the root while a world is up: its token finds the world's processes


def root_pids(root):
    """Processes whose root is this world's root, in any mount namespace (podman's pause process, conmon):
    /proc/PID/root/MARKER holds this world's token only for them."""
    try:
        token = open(os.path.join(root, MARKER)).read()
    except OSError:
        return []
    out = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        if int(pid) == os.getpid():
            continue
        try:
            with open(f"/proc/{pid}/root/{MARKER}") as f:
                if f.read() == token:
                    out.append(int(pid))
        except OSError:
            pass
    return out


def _leave(root, mounted):
    """Ends what runs in the root, then unmounts everything this world mounted (innermost first)."""
    for pid in root_pids(root):
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, 9)
    time.sleep(0.2)
    with contextlib.suppress(OSError):
        os.remove(os.path.join(root, MARKER))
    for target in reversed(mounted):
        if subprocess.run(["umount", "-R", target], capture_output=True).returncode != 0:
            subprocess.run(["umount", "-R", "-l", target], capture_output=True)


def mounts_under(path):
    """The /proc/mounts entries at or below path (the self-check's proof that nothing was left behind)."""
    real = os.path.realpath(path)
    with open("/proc/mounts") as f:
        targets = [line.split()[1].replace("\\040", " ") for line in f]
    return [t for t in targets if t == real or t.startswith(real + "/")]


@contextlib.contextmanager
def chroot_podman_world(root, user="tfuser", registry=None):
    """Rootless podman usable in the chroot for user (who must exist in the root); all undone on exit.

    The root is bind-mounted onto itself first: runc's pivot_root needs the process's root to be a mount
    point, which a plain chroot directory is not. Then /proc, /sys (rbind, rslave), a fresh devpts and
    /dev/shm; the root's own /dev nodes (with stand_in_wsl_gpu's /dev/dxg) are used as they are. registry
    ("127.0.0.1:PORT") is marked insecure for the user.
    """
    root = os.path.realpath(root)
    mounted = []
    try:
        _mount(mounted, "--bind", root, root)
        run(["mount", "--make-private", root])
        _mount(mounted, "-t", "proc", "proc", os.path.join(root, "proc"))
        _mount(mounted, "--rbind", "/sys", os.path.join(root, "sys"))
        run(["mount", "--make-rslave", os.path.join(root, "sys")])
        os.makedirs(os.path.join(root, "dev/pts"), exist_ok=True)
        _mount(mounted, "-t", "devpts", "-o", "newinstance,ptmxmode=0666,mode=0620", "devpts", os.path.join(root, "dev/pts"))
        _mount(mounted, "-t", "tmpfs", "-o", "mode=1777", "shm", os.path.join(root, "dev/shm"))
        os.makedirs(os.path.join(root, "run/user"), exist_ok=True)
        _mount(mounted, "-t", "tmpfs", "-o", "mode=0755", "tmpfs", os.path.join(root, "run/user"))
        _user_files(root, user, registry)
        with open(os.path.join(root, MARKER), "w") as f:
            f.write(f"{os.getpid()}-{time.time_ns()}\n")
        yield root
    finally:
        _leave(root, mounted)


ENTER = 'cd "$0" && pivot_root . . && umount -l . && cd / && mount --make-rshared / && exec "$@"'


def enter_argv(root, *argv, userspec=None):
    """argv that runs a command in the root as its own mount namespace's root (pivot_root), not a chroot.

    The kernel refuses a user namespace to a process in a chroot ("cannot clone: Operation not permitted"
    from rootless podman), so the agent and podman run where / IS the root; / is made rshared as podman wants.
    userspec "UID:GID" drops to that user (coreutils chroot to / only switches the user).
    """
    drop = ["/usr/sbin/chroot", f"--userspec={userspec}", "/"] if userspec else []
    return ["unshare", "--mount", "--propagation", "private", "--", "/bin/sh", "-c", ENTER, os.path.realpath(root),
            *drop, *argv]


def user_argv(root, user, *argv):
    """argv that runs a command in the root as user, with the environment a login session gives it."""
    pw = _user(root, user)
    env = [f"HOME={pw.pw_dir}", f"USER={user}", f"LOGNAME={user}", f"PATH={PATH}",
           f"XDG_RUNTIME_DIR=/run/user/{pw.pw_uid}"]
    return enter_argv(root, "/usr/bin/env", "-i", *env, *argv, userspec=f"{pw.pw_uid}:{pw.pw_gid}")


def podman_as(root, user, *args, timeout=300):
    """`podman ARGS` as user in the chroot (rootless), as the agent runs it there; the CompletedProcess."""
    return subprocess.run(user_argv(root, user, "podman", *args), capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, timeout=timeout, cwd="/")


# ---------------------------------------------------------------------------------------------- 7. self-check

DEFAULT_PRISTINE = os.path.join(HERE, "..", "..", "..", "build/linux/tests/integration/provision/cache/bookworm-minbase")
USER = "tfuser"
GPU_SCRIPT = "import tensorflow as tf; print(tf.config.list_physical_devices('GPU'))"
OP_SCRIPT = ("import tensorflow as tf\ntf.config.set_soft_device_placement(False)\nwith tf.device('/GPU:0'):\n"
             "    x = tf.reduce_sum(tf.random.normal([100, 100]))\nprint(x.device)")
failures = []


def check(condition, what, detail=""):
    print(("ok: " if condition else "FAILED: ") + what + ("" if condition or not detail else f"\n    {detail}"), flush=True)
    if not condition:
        failures.append(what)
    return condition


@contextlib.contextmanager
def step(name):
    """Prints the wall time of each step of the self-check."""
    started = time.monotonic()
    yield
    print(f"  [{name}: {time.monotonic() - started:.1f} s]", flush=True)


def free_port():
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def prepare_root(pristine, work, cache):
    """A fresh copy of the pristine root whose apt sees only a local repository: Debian's podman .debs
    and the stand-in toolkit (what the agent's `apt-get install` gets offline), and the user."""
    root = os.path.join(work, "root")
    run(["cp", "-a", pristine, root])
    repo = os.path.join(root, "srv/local-repo")
    os.makedirs(repo)
    for deb in podman_debs(cache, pristine):
        shutil.copy2(deb, repo)
    standin_toolkit_debs(repo)
    sp._index(repo)
    with open(os.path.join(root, "etc/apt/sources.list"), "w") as f:
        f.write("deb [trusted=yes] file:/srv/local-repo ./\n")
    for name in os.listdir(os.path.join(root, "etc/apt/sources.list.d")):
        os.remove(os.path.join(root, "etc/apt/sources.list.d", name))
    run(["chroot", root, "useradd", "-m", "-u", "1000", "-s", "/bin/sh", USER])
    return root


def in_root(root, *argv, timeout=600):
    return subprocess.run(enter_argv(root, "/usr/bin/env", "-i", f"PATH={PATH}", "DEBIAN_FRONTEND=noninteractive", *argv),
                          capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=timeout)


def install_packages(root):
    p = in_root(root, "apt-get", "update")
    if p.returncode == 0:
        p = in_root(root, "apt-get", "install", "-y", "podman", "nvidia-container-toolkit")
    check(p.returncode == 0, "apt-get install podman nvidia-container-toolkit in the chroot, offline", p.stderr[-1500:])
    status = open(os.path.join(root, "var/lib/dpkg/status")).read()
    have = [n for n in ("podman", "runc", "uidmap", "crun", "nvidia-container-toolkit-base")
            if f"Package: {n}\nStatus: install ok installed" in status]
    check(have == ["podman", "runc", "uidmap", "nvidia-container-toolkit-base"],
          f"... podman with runc (no crun) and uidmap, and the toolkit are installed: {have}")
    p = in_root(root, "nvidia-ctk", "--version")
    check(p.stdout.startswith(f"NVIDIA Container Toolkit CLI version {TOOLKIT_VERSION}\ncommit: "),
          "nvidia-ctk --version prints as the real one", p.stdout + p.stderr)


def generate_spec(root, what):
    p = in_root(root, "nvidia-ctk", "cdi", "generate", "--mode=wsl", "--output=/etc/cdi/nvidia.yaml")
    spec_path = os.path.join(root, "etc/cdi/nvidia.yaml")
    text = open(spec_path).read() if os.path.exists(spec_path) else ""
    check(p.returncode == 0 and "kind: nvidia.com/gpu" in text, f"{what}: nvidia-ctk cdi generate --mode=wsl", p.stderr)
    listed = in_root(root, "nvidia-ctk", "cdi", "list")
    check(listed.stdout == "nvidia.com/gpu=all\n", f"{what}: nvidia-ctk cdi list prints nvidia.com/gpu=all", listed.stdout)
    return text


def spec_checks(root, text, store):
    check(text.startswith("---\ncdiVersion: 0.3.0\nkind: nvidia.com/gpu\ndevices:\n    - name: all\n")
          and "            - path: /dev/dxg\n" in text, "the spec: device all with /dev/dxg", text[:400])
    for name in DRIVER_STORE_FILES + ("nvidia-smi",):
        check(f"        - hostPath: {store}/{name}\n" in text, f"the spec mounts {store}/{name}")
    check("- hostPath: /usr/lib/wsl/lib/libdxcore.so\n" in text, "the spec mounts /usr/lib/wsl/lib/libdxcore.so")
    check(f"- --link\n            - {store}/nvidia-smi::/usr/bin/nvidia-smi\n" in text
          and f"- update-ldcache\n            - --folder\n            - {store}\n            - --folder\n"
              "            - /usr/lib/wsl/lib\n" in text, "the spec's hooks: create-symlinks and update-ldcache")
    p = in_root(root, "nvidia-ctk", "cdi", "generate", "--mode", "wsl")
    check(p.returncode == 0 and p.stdout == text, "--mode wsl (two words) and no --output: the same spec on stdout")
    p = in_root(root, "nvidia-ctk", "cdi", "generate", "--bogus")
    check(p.returncode == 1 and "flag provided but not defined: --bogus" in p.stderr, "an unknown flag: exit 1", p.stderr)


def run_gpu(root, ref, script=GPU_SCRIPT):
    return podman_as(root, USER, "run", "--rm", "--device", "nvidia.com/gpu=all", ref, "python3", "-c", script)


def container_checks(root, ref):
    """The GPU run with the spec as generated; then a driver update makes it stale; regenerating fixes it."""
    with step("podman run (GPU list)"):
        p = run_gpu(root, ref)
    check(p.returncode == 0 and "/physical_device:GPU:0" in p.stdout,
          "podman run --rm --device nvidia.com/gpu=all IMAGE@DIGEST: TensorFlow lists GPU:0", p.stdout + p.stderr)
    with step("podman run (op on GPU:0)"):
        p = run_gpu(root, ref, OP_SCRIPT)
    check(p.returncode == 0 and p.stdout.strip().endswith("device:GPU:0"), "... tf.reduce_sum on /GPU:0 runs there",
          p.stdout + p.stderr)
    p = run_gpu(root, ref, "import os; print(os.readlink('/usr/bin/nvidia-smi')); "
                           "print(open('/etc/ld.so.conf.d/00-nvcr-standin.conf').read())")
    check(p.returncode == 0 and DEFAULT_STORE + "/nvidia-smi" in p.stdout and "/usr/lib/wsl/lib" in p.stdout,
          "... the hooks ran: /usr/bin/nvidia-smi links to the store, the ld.so.conf.d file names the folders",
          p.stdout + p.stderr)
    p = podman_as(root, USER, "run", "--rm", ref, "python3", "-c", OP_SCRIPT)
    check(p.returncode != 0 and "InvalidArgumentError: Could not satisfy device specification" in p.stderr,
          "without --device: no GPU, and an op asked for /GPU:0 fails as TensorFlow's does", p.stdout + p.stderr[-800:])
    update_driver(root, "nv_dispi.inf_amd64_0b7d11c4e2a9f850")
    with step("podman run (stale spec)"):
        p = run_gpu(root, ref)
    check(p.returncode != 0 and DEFAULT_STORE in p.stderr,
          "after a driver update the stale spec's run fails (its mount source is gone)", p.stdout + p.stderr)
    print("    podman said: " + p.stderr.strip().splitlines()[-1] if p.stderr.strip() else "    (no stderr)")
    generate_spec(root, "regenerated")
    p = run_gpu(root, ref)
    check(p.returncode == 0 and "/physical_device:GPU:0" in p.stdout, "regenerating the spec fixes the run",
          p.stdout + p.stderr)


def self_check(pristine, cache, work):
    with step("copy the root, local repo"):
        root = prepare_root(pristine, work, cache)
    port = free_port()
    registry_address = f"127.0.0.1:{port}"
    with chroot_podman_world(root, USER, registry_address):
        with step("apt-get install (offline)"):
            install_packages(root)
        store = stand_in_wsl_gpu(root)
        with step("nvidia-ctk cdi generate"):
            text = generate_spec(root, "first")
        spec_checks(root, text, store)
        with step("build the image tar"):
            tar = build_image_tar(pristine, os.path.join(cache, "ngc-standin-rootfs.tar"))
        with Registry(port, os.path.join(work, "registry")):
            repo = f"{registry_address}/tfwsl/ngc-standin"
            with step("push (host podman)"):
                digest = push_image(tar, repo + ":24.09-tf2-py3")
            check(digest.startswith("sha256:") and len(digest) == 71, f"push: the manifest digest {digest}")
            ref = f"{repo}@{digest}"
            with step("podman pull as the user"):
                p = podman_as(root, USER, "pull", ref)
            check(p.returncode == 0, f"podman pull {ref} as {USER} in the chroot (rootless)", p.stderr[-1500:])
            info = podman_as(root, USER, "info", "--format", "{{.Store.GraphDriverName}} {{.Host.OCIRuntime.Name}} "
                                                            "{{.Host.CgroupManager}} rootless={{.Host.Security.Rootless}}")
            print(f"    podman info: {info.stdout.strip() or info.stderr.strip()[-300:]}")
            with step("the container checks (7 runs)"):
                container_checks(root, ref)
        exit_started = time.monotonic()
    print(f"  [leave the world (kill, unmount): {time.monotonic() - exit_started:.1f} s]")
    left = mounts_under(root)
    check(not left, "nothing is left mounted under the work folder", "\n".join(left))
    return root


def main():
    import argparse
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pristine", default=os.path.realpath(DEFAULT_PRISTINE), help="the cached bookworm root (read only)")
    ap.add_argument("--cache", default="/var/tmp/tfwsl-container-cache", help="kept: podman .debs, the image tar")
    args = ap.parse_args()
    if os.geteuid() != 0:
        print("skipped: needs root (chroot, mount, mknod)")
        return SKIPPED
    for tool in ("chroot", "mount", "dpkg-deb", "apt-ftparchive", "podman", "docker-registry", "tar"):
        if not shutil.which(tool):
            print(f"skipped: {tool} is missing (install-deps: podman, docker-registry, apt-utils)")
            return SKIPPED
    if not os.path.exists(os.path.join(args.pristine, ".tfwsl-cache-ok")):
        print(f"skipped: no pristine root at {args.pristine} (the provisioning test builds it)")
        return SKIPPED
    started = time.monotonic()
    work = tempfile.mkdtemp(prefix="tfwsl-container-world-", dir="/var/tmp")
    try:
        self_check(args.pristine, args.cache, work)
    except Exception as e:  # noqa: BLE001 - the self-check reports, then cleans up
        check(False, f"the self-check stopped: {type(e).__name__}", str(e)[-2000:])
    finally:
        left = mounts_under(work)
        if left:
            check(False, "mounts left under the work folder; not removing it", "\n".join(left))
        else:
            with step("remove the work folder"):
                shutil.rmtree(work, ignore_errors=True)
    print(f"total {time.monotonic() - started:.1f} s")
    if failures:
        print(f"{len(failures)} failure(s)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
