#include "common/profile/profile_files.hpp"

#include <system_error>

namespace tfwsl {
namespace {

// No owner and no device: Windows' owners are SIDs, and a folder's ACL, not its owner, says who may
// change it; checking them is left undone (docs/profiles.md says so).
class WindowsProfileFiles final : public ProfileFiles {
 public:
  ProfilePathFacts facts(const std::filesystem::path& path) const override {
    ProfilePathFacts out;
    std::error_code ec;
    const auto status = std::filesystem::status(path, ec);
    out.exists = !ec && std::filesystem::exists(status);
    out.regular_file = out.exists && std::filesystem::is_regular_file(status);
    return out;
  }
  std::optional<std::uint64_t> current_user() const override { return std::nullopt; }
};

}  // namespace

const ProfileFiles& system_profile_files() {
  static const WindowsProfileFiles files;
  return files;
}

}  // namespace tfwsl
