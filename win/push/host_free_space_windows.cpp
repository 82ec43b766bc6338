#include <windows.h>

#include "common/text/utf_convert.hpp"
#include "win/push/host_free_space.hpp"

namespace tfwsl::push {
namespace {

class WindowsFreeSpace final : public FreeSpace {
 public:
  Result<std::uint64_t> free_bytes(const std::string& path) const override {
    ULARGE_INTEGER available{}, total{}, free{};
    // Any folder on the volume will do; the free bytes "available to the user" honour quotas.
    if (!GetDiskFreeSpaceExW(utf8_to_wide(path).c_str(), &available, &total, &free)) {
      return make_error(ErrorCode::io, "cannot read the free space of the drive holding '" + path + "'",
                        "GetDiskFreeSpaceExW failed with error " + std::to_string(GetLastError()));
    }
    return static_cast<std::uint64_t>(available.QuadPart);
  }
};

}  // namespace

std::unique_ptr<FreeSpace> make_system_free_space() { return std::make_unique<WindowsFreeSpace>(); }

}  // namespace tfwsl::push
