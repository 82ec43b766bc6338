#include "linux/agent/malloc_tuning.hpp"

#include <malloc.h>

namespace tfwsl::agent {

void tune_malloc() {
#if defined(__GLIBC__)
  constexpr int k_mmap_threshold_bytes = 128 * 1024;  // glibc's own starting value, no longer moving
  mallopt(M_MMAP_THRESHOLD, k_mmap_threshold_bytes);
#endif
}

}  // namespace tfwsl::agent
