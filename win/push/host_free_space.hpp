#pragma once
// The free space of the host drive holding a path: a port, so the room check is tested with any
// figure. Real: GetDiskFreeSpaceExW on Windows (the bytes available to this user, quotas included),
// statvfs elsewhere (host_free_space_windows.cpp / _posix.cpp). The Console's machine port
// host_free_bytes stands in for it where a test program set it, so the Wine test can show a refusal
// for a host disk that is too small without filling a real disk.

#include <cstdint>
#include <memory>
#include <string>

#include "common/cli/machine_ports.hpp"
#include "common/core/error.hpp"

namespace tfwsl::push {

class FreeSpace {
 public:
  virtual ~FreeSpace() = default;
  // Errors: io naming the path and the system's message.
  virtual Result<std::uint64_t> free_bytes(const std::string& path) const = 0;
};

std::unique_ptr<FreeSpace> make_system_free_space();

// The machine port's figure where it is set, else the system's.
std::unique_ptr<FreeSpace> make_host_free_space(const MachinePorts& machine);

}  // namespace tfwsl::push
