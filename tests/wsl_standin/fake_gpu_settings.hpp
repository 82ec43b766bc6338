#pragma once
// What the fake GPU libraries of the Wine scenarios' fake distro (fake_libcuda.cpp, fake_nvml.cpp)
// answer, from the environment the scenario runner gives the relayed agent (relay.txt):
//   TFWSL_FAKE_GPU_COUNT     devices behind /dev/dxg (default 1; 0: cuInit says CUDA_ERROR_NO_DEVICE,
//                            as with a GPU in TCC mode, which WSL cannot use)
//   TFWSL_FAKE_GPU_NAME      the device name (default "NVIDIA GeForce RTX 3080")
//   TFWSL_FAKE_DRIVER        the Windows driver version the WSL libraries come from (default 546.80)
//   TFWSL_FAKE_CC            the compute capability "major.minor" (default 8.6; an RTX 5090 is 12.0)
// C only (no libstdc++): the libraries are loaded into the agent, which links libstdc++ statically.
#include <cstdlib>
#include <cstring>

namespace tfwsl::fake_gpu {

inline const char* setting(const char* name, const char* fallback) {
  const char* v = std::getenv(name);
  return v && *v ? v : fallback;
}
inline int gpu_count() { return std::atoi(setting("TFWSL_FAKE_GPU_COUNT", "1")); }
inline const char* gpu_name() { return setting("TFWSL_FAKE_GPU_NAME", "NVIDIA GeForce RTX 3080"); }
inline const char* driver_version() { return setting("TFWSL_FAKE_DRIVER", "546.80"); }
inline int cc_major() { return std::atoi(setting("TFWSL_FAKE_CC", "8.6")); }
inline int cc_minor() {
  const char* cc = setting("TFWSL_FAKE_CC", "8.6");
  const char* dot = std::strchr(cc, '.');
  return dot ? std::atoi(dot + 1) : 0;
}

inline void copy_out(const char* text, char* out, unsigned int size) {
  if (size == 0) return;
  std::size_t length = std::strlen(text);
  std::size_t n = length < size - 1 ? length : size - 1;
  std::memcpy(out, text, n);
  out[n] = '\0';
}

}  // namespace tfwsl::fake_gpu
