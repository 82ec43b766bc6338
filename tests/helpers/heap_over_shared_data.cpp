// Preloaded into Wine's loader (LD_PRELOAD) by tests/windows/wine_layout.py: grows the loader's heap
// (brk) over 0x7ffe0000, the page where Wine maps Windows' user shared data, as the kernel's heap
// randomisation sometimes places it, so that the test can show what Wine does then.
#include <unistd.h>

#include <cstdint>

namespace {

constexpr std::uintptr_t k_past_user_shared_data = 0x7ffe1000;

__attribute__((constructor)) void grow_heap_over_user_shared_data() {
  const auto now = reinterpret_cast<std::uintptr_t>(::sbrk(0));
  if (now < k_past_user_shared_data) ::sbrk(static_cast<intptr_t>(k_past_user_shared_data - now));
}

}  // namespace
