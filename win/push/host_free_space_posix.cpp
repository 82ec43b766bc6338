#include <sys/statvfs.h>

#include <cerrno>
#include <cstring>

#include "win/push/host_free_space.hpp"

namespace tfwsl::push {
namespace {

class StatvfsFreeSpace final : public FreeSpace {
 public:
  Result<std::uint64_t> free_bytes(const std::string& path) const override {
    struct statvfs vfs {};
    if (::statvfs(path.c_str(), &vfs) != 0)
      return make_error(ErrorCode::io, "cannot read the free space of the filesystem holding '" + path + "'",
                        std::strerror(errno));
    return static_cast<std::uint64_t>(vfs.f_bavail) * vfs.f_frsize;
  }
};

}  // namespace

std::unique_ptr<FreeSpace> make_system_free_space() { return std::make_unique<StatvfsFreeSpace>(); }

}  // namespace tfwsl::push
