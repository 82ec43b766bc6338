#pragma once
// The free space of the host drive holding a path: a port, so the room check is tested with any
// figure. Real: GetDiskFreeSpaceExW on Windows (the bytes available to this user, quotas included),
// statvfs elsewhere (host_free_space_windows.cpp / _posix.cpp). The machine's host port
// (win/tasks/machine.hpp) answers with it, and a test program's stands in for it, so the Wine test
// can show a refusal for a host disk that is too small without filling a real disk.

#include <cstdint>
#include <memory>
#include <string>

#include "common/core/error.hpp"

namespace tfwsl::push {

class FreeSpace {
 public:
  virtual ~FreeSpace() = default;
  // Errors: io naming the path and the system's message.
  virtual Result<std::uint64_t> free_bytes(const std::string& path) const = 0;
};

std::unique_ptr<FreeSpace> make_system_free_space();

}  // namespace tfwsl::push
