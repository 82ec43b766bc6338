// The GPU driver libraries probed in this process (library_probes.hpp): run only by the agent's
// internal `probe-libraries gpu` child, which the agent kills if a driver call hangs.
#include <cstddef>
#include <string>

#include "linux/checks/library_probes.hpp"

namespace tfwsl::linux_checks {

namespace {

// The few driver-API signatures we call (cuda.h / nvml.h are not needed: plain C types).
using CuInit = int (*)(unsigned int);
using CuDriverGetVersion = int (*)(int*);
using CuDeviceGetCount = int (*)(int*);
using CuDeviceGet = int (*)(int*, int);
using CuDeviceGetName = int (*)(char*, int, int);
using CuDeviceGetAttribute = int (*)(int*, int, int);
using CuDeviceTotalMem = int (*)(std::size_t*, int);
using CuGetErrorName = int (*)(int, const char**);
constexpr int k_cc_major_attribute = 75;  // CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR
constexpr int k_cc_minor_attribute = 76;

using NvmlInit = int (*)();
using NvmlShutdown = int (*)();
using NvmlSystemGetDriverVersion = int (*)(char*, unsigned int);
using NvmlDeviceGetCount = int (*)(unsigned int*);
using NvmlDeviceGetHandleByIndex = int (*)(unsigned int, void**);
using NvmlDeviceGetName = int (*)(void*, char*, unsigned int);
using NvmlErrorString = const char* (*)(int);

template <class F>
F sym(const DynamicLibrary& lib, const char* name) {
  return reinterpret_cast<F>(lib.symbol(name));
}

std::string cuda_error(const DynamicLibrary& lib, int code) {
  std::string text = "CUresult " + std::to_string(code);
  if (auto name_of = sym<CuGetErrorName>(lib, "cuGetErrorName")) {
    const char* name = nullptr;
    if (name_of(code, &name) == 0 && name) text = std::string(name) + " (" + std::to_string(code) + ")";
  }
  return text;
}

void probe_libcuda(LibraryLoader& loader, agent_api::GpuResponse& g) {
  auto opened = loader.open("libcuda.so.1");
  if (!opened) {
    g.libcuda_error = "libcuda.so.1 not found: " + opened.error().detail;
    return;
  }
  const auto& lib = **opened;
  g.libcuda_loaded = true;
  g.libcuda_path = lib.real_path();
  auto init = sym<CuInit>(lib, "cuInit");
  auto driver_version = sym<CuDriverGetVersion>(lib, "cuDriverGetVersion");
  auto count_of = sym<CuDeviceGetCount>(lib, "cuDeviceGetCount");
  auto get = sym<CuDeviceGet>(lib, "cuDeviceGet");
  auto name_of = sym<CuDeviceGetName>(lib, "cuDeviceGetName");
  auto attribute = sym<CuDeviceGetAttribute>(lib, "cuDeviceGetAttribute");
  auto total_mem = sym<CuDeviceTotalMem>(lib, "cuDeviceTotalMem_v2");
  if (!init || !count_of || !get) {
    g.libcuda_error = g.libcuda_path + " lacks cuInit/cuDeviceGetCount/cuDeviceGet: not a CUDA driver library";
    return;
  }
  if (driver_version) {
    int v = 0;
    if (driver_version(&v) == 0) g.cuda_driver_version = v;
  }
  if (int rc = init(0); rc != 0) {
    g.libcuda_error = "cuInit failed: " + cuda_error(lib, rc);
    return;
  }
  int count = 0;
  if (int rc = count_of(&count); rc != 0) {
    g.libcuda_error = "cuDeviceGetCount failed: " + cuda_error(lib, rc);
    return;
  }
  for (int i = 0; i < count && i < 64; ++i) {
    agent_api::GpuDevice d;
    d.index = i;
    int dev = 0;
    if (get(&dev, i) != 0) continue;
    char name[256] = {};
    if (name_of && name_of(name, sizeof name - 1, dev) == 0) d.name = name;
    if (attribute) {
      attribute(&d.cc_major, k_cc_major_attribute, dev);
      attribute(&d.cc_minor, k_cc_minor_attribute, dev);
    }
    std::size_t bytes = 0;
    if (total_mem && total_mem(&bytes, dev) == 0) d.memory_bytes = bytes;
    g.devices.push_back(d);
  }
}

void probe_nvml(LibraryLoader& loader, agent_api::GpuResponse& g) {
  auto opened = loader.open("libnvidia-ml.so.1");
  if (!opened) {
    g.nvml_error = "libnvidia-ml.so.1 not found: " + opened.error().detail;
    return;
  }
  const auto& lib = **opened;
  auto init = sym<NvmlInit>(lib, "nvmlInit_v2");
  auto shutdown = sym<NvmlShutdown>(lib, "nvmlShutdown");
  auto version = sym<NvmlSystemGetDriverVersion>(lib, "nvmlSystemGetDriverVersion");
  auto count_of = sym<NvmlDeviceGetCount>(lib, "nvmlDeviceGetCount_v2");
  auto handle_of = sym<NvmlDeviceGetHandleByIndex>(lib, "nvmlDeviceGetHandleByIndex_v2");
  auto name_of = sym<NvmlDeviceGetName>(lib, "nvmlDeviceGetName");
  auto error_string = sym<NvmlErrorString>(lib, "nvmlErrorString");
  if (!init || !version) {
    g.nvml_error = "libnvidia-ml.so.1 lacks nvmlInit_v2/nvmlSystemGetDriverVersion";
    return;
  }
  if (int rc = init(); rc != 0) {
    g.nvml_error = std::string("nvmlInit failed: ") + (error_string ? error_string(rc) : std::to_string(rc).c_str());
    return;
  }
  char buf[96] = {};
  if (version(buf, sizeof buf - 1) == 0) g.nvml_driver_version = buf;
  unsigned int count = 0;
  if (count_of && handle_of && name_of && count_of(&count) == 0) {
    for (unsigned int i = 0; i < count && i < 64; ++i) {
      void* handle = nullptr;
      char name[96] = {};
      if (handle_of(i, &handle) == 0 && name_of(handle, name, sizeof name - 1) == 0)
        g.nvml_device_names.push_back(name);
    }
  }
  if (shutdown) shutdown();
  g.nvml_source = "nvml";
  g.nvml_error.clear();
}

}  // namespace

agent_api::GpuResponse probe_gpu_libraries(LibraryLoader& loader) {
  agent_api::GpuResponse g;
  probe_libcuda(loader, g);
  probe_nvml(loader, g);
  return g;
}

}  // namespace tfwsl::linux_checks
