// The agent is copied into Ubuntu 22.04 (glibc 2.35). GCC 12's static libstdc++, built on this
// glibc 2.36, calls arc4random() from std::random_device (cpp-httplib uses one), which would make
// the binary need GLIBC_2.36 and refuse to start there. Defining the symbol in the executable
// resolves that reference here, with getrandom() (glibc 2.25) underneath.
// tests/portability checks the result: no symbol version above GLIBC_2.35.

#include <sys/random.h>

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstdlib>

extern "C" {

void arc4random_buf(void* buffer, std::size_t size) {
  auto* out = static_cast<unsigned char*>(buffer);
  while (size > 0) {
    ssize_t n = getrandom(out, size, 0);
    if (n < 0) {
      if (errno == EINTR) continue;
      std::abort();  // no entropy source at all: nothing safe to return
    }
    out += n;
    size -= static_cast<std::size_t>(n);
  }
}

std::uint32_t arc4random(void) {
  std::uint32_t value;
  arc4random_buf(&value, sizeof value);
  return value;
}

std::uint32_t arc4random_uniform(std::uint32_t upper_bound) {
  if (upper_bound < 2) return 0;
  // Rejection sampling: no modulo bias.
  std::uint32_t min = -upper_bound % upper_bound;
  for (;;) {
    std::uint32_t r = arc4random();
    if (r >= min) return r % upper_bound;
  }
}

}  // extern "C"
