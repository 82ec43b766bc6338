"""Stand-in packages for the provisioning chroot test, built by the test (never downloaded).

apt: a local repository (dpkg-deb + apt-ftparchive) with the real names: `cuda-keyring` (its
sources entry points apt at a second local repository, as NVIDIA's points at theirs),
`cuda-toolkit-12-2` in that second repository (its postinst can be made slow, to kill apt in the
middle of it), and `standin-conffile`, whose conffile dpkg would ask about when a local copy exists.
pip: a wheel folder with a stand-in `tensorflow` 2.15.1 whose `and-cuda` extra needs a stand-in
`nvidia-cudnn-cu12` (with a stand-in libcudnn.so.8), and `numpy` 1.26.4; the stand-in TensorFlow
answers the agent's probe as a CUDA build that sees one GPU. While NEEDS_LINKS_FLAG exists in the
chroot it finds the pip cuDNN only through the link TensorFlow's pip guide prescribes
(tensorflow/libcudnn.so.8) and, without it, logs what a real TF 2.15 logs and sees no GPU; while
NEEDS_XLA_FLAG exists it logs XLA's "Can't find libdevice directory" unless XLA_FLAGS names a
--xla_gpu_cuda_data_dir with nvvm/libdevice (the stand-in nvidia-cuda-nvcc-cu12 wheel has one).
"""
import base64
import hashlib
import os
import subprocess
import zipfile

SLOW_POSTINST_FLAG = "/run/tfwsl-slow-postinst"      # inside the chroot: the toolkit's postinst waits
POSTINST_STARTED = "/run/tfwsl-postinst-started"      # ... after writing this
NEEDS_LINKS_FLAG = "/etc/standin-tf-needs-links"      # inside the chroot: TF needs the library links
NEEDS_XLA_FLAG = "/etc/standin-tf-needs-xla-flags"    # ... XLA needs XLA_FLAGS=--xla_gpu_cuda_data_dir


def _deb(work, name, version, files, conffiles=(), postinst=None, depends=None):
    tree = os.path.join(work, f"{name}_{version}")
    os.makedirs(os.path.join(tree, "DEBIAN"), exist_ok=True)
    control = [f"Package: {name}", f"Version: {version}", "Architecture: all", "Maintainer: tfwsl tests <dev@tfwsl.invalid>",
               "Section: misc", "Priority: optional", f"Description: stand-in {name} for the tfwsl provisioning test"]
    if depends:
        control.append(f"Depends: {depends}")
    with open(os.path.join(tree, "DEBIAN/control"), "w") as f:
        f.write("\n".join(control) + "\n")
    if conffiles:
        with open(os.path.join(tree, "DEBIAN/conffiles"), "w") as f:
            f.write("".join(c + "\n" for c in conffiles))
    if postinst:
        path = os.path.join(tree, "DEBIAN/postinst")
        with open(path, "w") as f:
            f.write(postinst)
        os.chmod(path, 0o755)
    for path, text in files.items():
        full = os.path.join(tree, path.lstrip("/"))
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w") as f:
            f.write(text)
    return tree


def _build(tree, out_dir):
    os.makedirs(out_dir, exist_ok=True)
    subprocess.run(["dpkg-deb", "--root-owner-group", "-Zgzip", "--build", tree, out_dir], check=True, capture_output=True)


def _index(repo):
    with open(os.path.join(repo, "Packages"), "wb") as f:
        subprocess.run(["apt-ftparchive", "packages", "."], cwd=repo, check=True, stdout=f)
    with open(os.path.join(repo, "Release"), "wb") as f:
        subprocess.run(["apt-ftparchive", "release", "."], cwd=repo, check=True, stdout=f)


def build_apt_repositories(root, work):
    """/srv/local-repo (what the distro's own archive stands for) and /srv/cuda-repo (NVIDIA's)."""
    local = os.path.join(root, "srv/local-repo")
    cuda = os.path.join(root, "srv/cuda-repo")
    _build(_deb(work, "standin-conffile", "1.0", {"/etc/standin-conffile.conf": "packaged = yes\n"},
                conffiles=["/etc/standin-conffile.conf"]), local)
    _build(_deb(work, "cuda-keyring", "1.1-1", {
        "/etc/apt/sources.list.d/cuda-standin.list": "deb [trusted=yes] file:/srv/cuda-repo ./\n",
        "/usr/share/keyrings/cuda-archive-keyring.gpg": "stand-in key\n"}), cuda)
    postinst = ("#!/bin/sh\nset -e\n"
                f"if [ -e {SLOW_POSTINST_FLAG} ]; then touch {POSTINST_STARTED}; sleep 120; fi\n")
    _build(_deb(work, "cuda-toolkit-12-2", "12.2.2-1", {"/usr/local/cuda-12.2/bin/nvcc": "#!/bin/sh\necho 'release 12.2'\n"},
                postinst=postinst), cuda)
    _index(local)
    _index(cuda)


TENSORFLOW_INIT = '''"""Stand-in TensorFlow for the tfwsl provisioning test: what the agent's probe asks, answered."""
import os as _os
import sys as _sys

__version__ = "2.15.1"

# A real TF 2.15's lines when it cannot dlopen the pip cuDNN (gpu_device.cc; the agent's log parser reads them).
_NOT_FOUND = ("2026-12-01 17:00:00.000000: W tensorflow/core/common_runtime/gpu/gpu_device.cc:2256] Cannot dlopen some GPU "
              "libraries. Please make sure the missing libraries mentioned above are installed properly if you would like "
              "to use GPU. Follow the guide at https://www.tensorflow.org/install/gpu for how to download and setup the "
              "required libraries for your platform.\\nSkipping registering GPU devices...\\n")


_NO_LIBDEVICE = ("2026-12-01 17:00:00.000000: W external/local_xla/xla/service/gpu/llvm_gpu_backend/gpu_backend_lib.cc:102] "
                 "Can't find libdevice directory ${CUDA_DIR}/nvvm/libdevice. This may result in compilation or runtime "
                 "failures, if the program we try to run uses routines from libdevice.\\n")


def _xla_data_dir_ok():
    if not _os.path.exists("/etc/standin-tf-needs-xla-flags"):
        return True
    for flag in _os.environ.get("XLA_FLAGS", "").split():
        if flag.startswith("--xla_gpu_cuda_data_dir="):
            return _os.path.isdir(_os.path.join(flag.split("=", 1)[1], "nvvm/libdevice"))
    return False


if not _xla_data_dir_ok():
    _sys.stderr.write(_NO_LIBDEVICE)


def _finds_libraries():
    if not _os.path.exists("/etc/standin-tf-needs-links"):
        return True
    return _os.path.exists(_os.path.join(_os.path.dirname(__file__), "libcudnn.so.8"))


class _Sysconfig:
    @staticmethod
    def get_build_info():
        return {"cuda_version": "12.2", "cudnn_version": "8", "is_cuda_build": True,
                "cuda_compute_capabilities": ["sm_50", "sm_60", "sm_70", "sm_80", "compute_90"]}


class _Device:
    def __init__(self, name):
        self.name = name


class _Config:
    @staticmethod
    def list_physical_devices(kind=None):
        if not _finds_libraries():
            _sys.stderr.write(_NOT_FOUND)
            return []
        return [_Device("/physical_device:GPU:0")] if kind in (None, "GPU") else []


class _Tensor:
    device = "/job:localhost/replica:0/task:0/device:GPU:0"


class _DeviceScope:
    def __init__(self, name):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


class _Random:
    @staticmethod
    def uniform(shape):
        return _Tensor()


sysconfig = _Sysconfig()
config = _Config()
random = _Random()


def device(name):
    return _DeviceScope(name)


def matmul(a, b):
    return _Tensor()
'''


def _wheel(folder, name, version, files, requires=(), extras=()):
    dist = f"{name.replace('-', '_')}-{version}.dist-info"
    metadata = [f"Metadata-Version: 2.1", f"Name: {name}", f"Version: {version}"]
    metadata += [f"Provides-Extra: {e}" for e in extras]
    metadata += [f"Requires-Dist: {r}" for r in requires]
    contents = dict(files)
    contents[f"{dist}/METADATA"] = "\n".join(metadata) + "\n"
    contents[f"{dist}/WHEEL"] = "Wheel-Version: 1.0\nGenerator: tfwsl-test\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    record = []
    for path, text in contents.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(text.encode()).digest()).rstrip(b"=").decode()
        record.append(f"{path},sha256={digest},{len(text.encode())}")
    record.append(f"{dist}/RECORD,,")
    contents[f"{dist}/RECORD"] = "\n".join(record) + "\n"
    path = os.path.join(folder, f"{name.replace('-', '_')}-{version}-py3-none-any.whl")
    with zipfile.ZipFile(path, "w") as z:
        for p, text in contents.items():
            z.writestr(p, text)


def build_wheels(root):
    folder = os.path.join(root, "srv/wheels")
    os.makedirs(folder, exist_ok=True)
    _wheel(folder, "tensorflow", "2.15.1", {"tensorflow/__init__.py": TENSORFLOW_INIT},
           requires=['nvidia-cudnn-cu12==8.9.4.25; extra == "and-cuda"', 'nvidia-cuda-nvcc-cu12==12.2.140; extra == "and-cuda"'],
           extras=["and-cuda"])
    _wheel(folder, "nvidia-cuda-nvcc-cu12", "12.2.140", {"nvidia/cuda_nvcc/__init__.py": "",
                                                         "nvidia/cuda_nvcc/nvvm/libdevice/libdevice.10.bc": "stand-in\n"})
    _wheel(folder, "nvidia-cudnn-cu12", "8.9.4.25", {"nvidia/cudnn/__init__.py": "", "nvidia/cudnn/lib/libcudnn.so.8": "stand-in\n"})
    _wheel(folder, "numpy", "1.26.4", {"numpy/__init__.py": "__version__ = '1.26.4'\n"})
    return "/srv/wheels"
