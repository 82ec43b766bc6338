// A fake libnvidia-ml.so.1 for the Wine scenarios' fake distro (fake_gpu_settings.hpp): the NVML
// calls the agent's GPU probe makes, with NVML's result codes (NVML_SUCCESS 0,
// NVML_ERROR_INVALID_ARGUMENT 2, NVML_ERROR_INSUFFICIENT_SIZE 7; docs.nvidia.com/deploy/nvml-api).
#include <cstring>

#include "tests/wsl_standin/fake_gpu_settings.hpp"

namespace {
constexpr int k_success = 0, k_invalid_argument = 2, k_insufficient_size = 7;
int g_handles[64];
}  // namespace

extern "C" {

int nvmlInit_v2() { return k_success; }
int nvmlShutdown() { return k_success; }

int nvmlSystemGetDriverVersion(char* version, unsigned int length) {
  if (!version) return k_invalid_argument;
  const char* text = tfwsl::fake_gpu::driver_version();
  if (length <= std::strlen(text)) return k_insufficient_size;
  tfwsl::fake_gpu::copy_out(text, version, length);
  return k_success;
}

// TCC mode hides the GPU from WSL: NVML there counts what libcuda counts.
int nvmlDeviceGetCount_v2(unsigned int* count) {
  if (!count) return k_invalid_argument;
  int n = tfwsl::fake_gpu::gpu_count();
  *count = n > 0 ? static_cast<unsigned int>(n) : 0u;
  return k_success;
}

int nvmlDeviceGetHandleByIndex_v2(unsigned int index, void** device) {
  if (!device || index >= 64 || static_cast<int>(index) >= tfwsl::fake_gpu::gpu_count()) return k_invalid_argument;
  *device = &g_handles[index];
  return k_success;
}

int nvmlDeviceGetName(void* device, char* name, unsigned int length) {
  if (!device || !name) return k_invalid_argument;
  tfwsl::fake_gpu::copy_out(tfwsl::fake_gpu::gpu_name(), name, length);
  return k_success;
}

const char* nvmlErrorString(int code) {
  switch (code) {
    case k_success:
      return "Success";
    case k_invalid_argument:
      return "Invalid Argument";
    case k_insufficient_size:
      return "Insufficient Size";
    default:
      return "Unknown Error";
  }
}

}  // extern "C"
