"""A stand-in for TensorFlow 2.15 in the Wine scenarios' fake distro (tests/wsl_standin/README.md).

It answers what the agent's TensorFlow probe asks (linux/checks/tensorflow_probe.cpp) the way
TensorFlow decides it: it loads libcuda.so.1 from this distro's /usr/lib/wsl/lib (ld.wsl.conf's
directory), calls cuInit and counts the devices. Without a usable GPU it logs on stderr the lines
TensorFlow 2.15 logs in that case and lists no GPU, so the agent's verdict follows the fake distro.
"""
import ctypes
import os
import sys

# relay.txt's `tf-version` (TFWSL_FAKE_TF_VERSION) makes it another release, for `tfwsl profile diff`.
__version__ = os.environ.get("TFWSL_FAKE_TF_VERSION", "2.15.1")

# .../usr/lib/python3/dist-packages/tensorflow/__init__.py -> the distro's root.
_ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), *[os.pardir] * 5))
_LIBCUDA = os.path.join(_ROOT, "usr", "lib", "wsl", "lib", "libcuda.so.1")
_CUDA_ERRORS = {100: "CUDA_ERROR_NO_DEVICE: no CUDA-capable device is detected"}


def _log(level, where, message):
    sys.stderr.write("2024-01-15 10:00:00.000000: %s %s] %s\n" % (level, where, message))


def _count_gpus():
    try:
        cuda = ctypes.CDLL(_LIBCUDA)
    except OSError:
        # TensorFlow's own libcudart comes from its pip packages; what is missing is the driver's.
        _log("W", "external/local_tsl/tsl/platform/default/dso_loader.cc:64",
             "Could not load dynamic library 'libcuda.so.1'; dlerror: libcuda.so.1: cannot open shared object "
             "file: No such file or directory")
        _log("E", "external/local_xla/xla/stream_executor/cuda/cuda_driver.cc:274",
             "failed call to cuInit: UNKNOWN ERROR (303)")
        return 0
    rc = cuda.cuInit(0)
    if rc != 0:
        _log("E", "external/local_xla/xla/stream_executor/cuda/cuda_driver.cc:274",
             "failed call to cuInit: %s" % _CUDA_ERRORS.get(rc, "CUresult(%d)" % rc))
        return 0
    count = ctypes.c_int(0)
    if cuda.cuDeviceGetCount(ctypes.byref(count)) != 0:
        return 0
    return count.value


_GPUS = _count_gpus()
if _GPUS == 0:
    _log("W", "tensorflow/core/common_runtime/gpu/gpu_device.cc:2256",
         "Cannot dlopen some GPU libraries. Please make sure the missing libraries mentioned above are "
         "installed properly if you would like to use GPU. Skipping registering GPU devices...")


class PhysicalDevice:
    def __init__(self, name, device_type):
        self.name = name
        self.device_type = device_type


class _Tensor:
    def __init__(self, device):
        self.device = device


class _Device:
    def __init__(self, name):
        self._name = name
        self._previous = None

    def __enter__(self):
        global _current_device
        self._previous, _current_device = _current_device, self._name
        return self

    def __exit__(self, *exc):
        global _current_device
        _current_device = self._previous
        return False


_current_device = None


def _placed():
    # "/GPU:0" -> "/job:localhost/replica:0/task:0/device:GPU:0", as TensorFlow names a placement.
    wanted = (_current_device or "/CPU:0").lstrip("/").upper()
    kind, _, index = wanted.partition(":")
    if kind == "GPU" and int(index or 0) >= _GPUS:
        kind, index = "CPU", "0"
    return "/job:localhost/replica:0/task:0/device:%s:%s" % (kind, index or "0")


def device(name):
    return _Device(name)


def matmul(a, b):
    return _Tensor(_placed())


class _Random:
    @staticmethod
    def uniform(shape):
        return _Tensor(_placed())


class _Config:
    @staticmethod
    def list_physical_devices(device_type=None):
        devices = [PhysicalDevice("/physical_device:CPU:0", "CPU")]
        devices += [PhysicalDevice("/physical_device:GPU:%d" % i, "GPU") for i in range(_GPUS)]
        return [d for d in devices if device_type is None or d.device_type == device_type]


class _Sysconfig:
    @staticmethod
    def get_build_info():
        # What tensorflow[and-cuda]==2.15.1 reports.
        return {"cpu_compiler": "/usr/lib/llvm-17/bin/clang", "cuda_compute_capabilities":
                ["sm_50", "sm_60", "sm_70", "sm_80", "compute_90"], "cuda_version": "12.2",
                "cudnn_version": "8", "is_cuda_build": True, "is_rocm_build": False, "is_tensorrt_build": True}


random = _Random()
config = _Config()
sysconfig = _Sysconfig()
