// A fake libcuda.so.1 for the Wine scenarios' fake distro (fake_gpu_settings.hpp): the few driver
// API entry points the agent's GPU probe and the TensorFlow stand-in call, with CUDA's own result
// codes (CUDA_SUCCESS 0, CUDA_ERROR_INVALID_VALUE 1, CUDA_ERROR_NOT_INITIALIZED 3,
// CUDA_ERROR_NO_DEVICE 100, CUDA_ERROR_INVALID_DEVICE 101; docs.nvidia.com/cuda/cuda-driver-api).
#include <cstddef>

#include "tests/wsl_standin/fake_gpu_settings.hpp"

namespace {
bool g_initialised = false;
constexpr int k_success = 0, k_invalid_value = 1, k_not_initialised = 3, k_no_device = 100, k_invalid_device = 101;
}  // namespace

extern "C" {

int cuInit(unsigned int flags) {
  if (flags != 0) return k_invalid_value;
  if (tfwsl::fake_gpu::gpu_count() <= 0) return k_no_device;
  g_initialised = true;
  return k_success;
}

int cuDriverGetVersion(int* version) {
  if (!version) return k_invalid_value;
  *version = 12030;  // a 546.xx driver speaks CUDA 12.3
  return k_success;
}

int cuDeviceGetCount(int* count) {
  if (!count) return k_invalid_value;
  if (!g_initialised) return k_not_initialised;
  *count = tfwsl::fake_gpu::gpu_count();
  return k_success;
}

int cuDeviceGet(int* device, int ordinal) {
  if (!g_initialised) return k_not_initialised;
  if (!device || ordinal < 0 || ordinal >= tfwsl::fake_gpu::gpu_count()) return k_invalid_device;
  *device = ordinal;
  return k_success;
}

int cuDeviceGetName(char* name, int length, int device) {
  if (!name || length <= 0) return k_invalid_value;
  if (device < 0 || device >= tfwsl::fake_gpu::gpu_count()) return k_invalid_device;
  tfwsl::fake_gpu::copy_out(tfwsl::fake_gpu::gpu_name(), name, static_cast<unsigned int>(length));
  return k_success;
}

// The compute capability (TFWSL_FAKE_CC, default 8.6 of an Ampere GeForce): attributes 75 and 76.
int cuDeviceGetAttribute(int* value, int attribute, int device) {
  if (!value) return k_invalid_value;
  if (device < 0 || device >= tfwsl::fake_gpu::gpu_count()) return k_invalid_device;
  if (attribute == 75)
    *value = tfwsl::fake_gpu::cc_major();
  else if (attribute == 76)
    *value = tfwsl::fake_gpu::cc_minor();
  else
    return k_invalid_value;
  return k_success;
}

int cuDeviceTotalMem_v2(std::size_t* bytes, int device) {
  if (!bytes) return k_invalid_value;
  if (device < 0 || device >= tfwsl::fake_gpu::gpu_count()) return k_invalid_device;
  *bytes = std::size_t(10240) * 1024 * 1024;
  return k_success;
}

int cuGetErrorName(int code, const char** name) {
  if (!name) return k_invalid_value;
  switch (code) {
    case k_success:
      *name = "CUDA_SUCCESS";
      break;
    case k_invalid_value:
      *name = "CUDA_ERROR_INVALID_VALUE";
      break;
    case k_not_initialised:
      *name = "CUDA_ERROR_NOT_INITIALIZED";
      break;
    case k_no_device:
      *name = "CUDA_ERROR_NO_DEVICE";
      break;
    case k_invalid_device:
      *name = "CUDA_ERROR_INVALID_DEVICE";
      break;
    default:
      return k_invalid_value;
  }
  return k_success;
}

}  // extern "C"
