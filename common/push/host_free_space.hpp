#pragma once
// The free space of the host drive holding a path: a port, so the room check is tested with any
// figure. Real: GetDiskFreeSpaceExW on Windows (the bytes available to this user, quotas included),
// statvfs elsewhere (host_free_space_windows.cpp / _posix.cpp). The test hook
// TFWSL_TEST_HOST_FREE_BYTES=N (with_free_space_test_hook) makes every drive report N bytes, so the
// Wine test can show a refusal for a host disk that is too small without filling a real disk.

#include <cstdint>
#include <memory>
#include <string>

#include "common/cli/color_choice.hpp"
#include "common/core/error.hpp"

namespace tfwsl::push {

inline constexpr const char* k_free_space_test_hook_env = "TFWSL_TEST_HOST_FREE_BYTES";

class FreeSpace {
 public:
  virtual ~FreeSpace() = default;
  // Errors: io naming the path and the system's message.
  virtual Result<std::uint64_t> free_bytes(const std::string& path) const = 0;
};

std::unique_ptr<FreeSpace> make_system_free_space();

// `real` unless the environment sets TFWSL_TEST_HOST_FREE_BYTES to a number (logged as a warning).
std::unique_ptr<FreeSpace> with_free_space_test_hook(std::unique_ptr<FreeSpace> real, const EnvironmentLookup& environment);

}  // namespace tfwsl::push
