"""A stand-in machine for the native `tfwsl profile` tests: the Wine scenarios' fake distro
(tests/wsl_standin/README.md) observed by the real tfwsl-agent through its probe root, a
.wslconfig named by TFWSL_WSLCONFIG, and the facts varied as relay.txt varies them (the NVML
driver, the TensorFlow stand-in's version)."""
import os
import shutil
import subprocess
import sys

SKIPPED = 77


def require_fake_gpu(fake_gpu_dir):
    """Exit 77 (skipped) when the fake GPU libraries are not built."""
    for lib in ("libcuda.so.1", "libnvidia-ml.so.1"):
        if not os.path.exists(os.path.join(fake_gpu_dir, lib)):
            print(f"skipped: {lib} is not built in {fake_gpu_dir} (targets tfwsl_fake_libcuda, tfwsl_fake_nvml)")
            sys.exit(SKIPPED)


class FakeMachine:
    def __init__(self, work, template, fake_gpu_dir):
        self.root = os.path.join(work, "distro")
        shutil.copytree(template, self.root, symlinks=True)
        libs = os.path.join(self.root, "usr", "lib", "wsl", "lib")
        os.makedirs(libs, exist_ok=True)
        for lib in ("libcuda.so.1", "libnvidia-ml.so.1"):
            shutil.copy(os.path.join(fake_gpu_dir, lib), os.path.join(libs, lib))
        os.makedirs(os.path.join(self.root, "tmp"), exist_ok=True)
        self.wslconfig = os.path.join(work, "wslconfig.ini")
        self.config_home = os.path.join(work, "config")  # no default profile of the build machine's user
        os.makedirs(self.config_home, exist_ok=True)
        self.driver = "546.80"
        self.tf_version = "2.15.1"
        self.memory = "16GB"

    def write_wslconfig(self):
        with open(self.wslconfig, "w", newline="") as f:
            f.write(f"[wsl2]\r\nmemory={self.memory}\r\n")

    def env(self):
        self.write_wslconfig()
        env = dict(os.environ)
        env.pop("TFWSL_AGENT", None)
        env.update({
            "TFWSL_PROBE_ROOT": self.root,
            "PATH": os.path.join(self.root, "usr", "bin") + os.pathsep + os.environ.get("PATH", "/usr/bin:/bin"),
            "TMPDIR": os.path.join(self.root, "tmp"),
            "TFWSL_FAKE_DRIVER": self.driver,
            "TFWSL_FAKE_TF_VERSION": self.tf_version,
            "TFWSL_WSLCONFIG": self.wslconfig,
            "XDG_CONFIG_HOME": self.config_home,
        })
        return env

    def run(self, argv, cwd, stdin=subprocess.DEVNULL):
        return subprocess.run(argv, capture_output=True, text=True, timeout=540, env=self.env(), cwd=cwd, stdin=stdin)
