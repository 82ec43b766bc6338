#include <system_error>

#include "common/profile/profile_files.hpp"

namespace tfwsl {
namespace {

// Owners are SIDs, read with GetSecurityInfo (common/util/file_owner_windows.cpp); no device, so the
// climb stops at the home folder and the drive root. Folders made under C:\ are writable by
// Authenticated Users, so a tfwsl.yaml above a project may be anyone's: only the user's own, or one
// SYSTEM or Administrators own, is used. Wine keeps no real owners: this runs for real only on Windows.
class WindowsProfileFiles final : public ProfileFiles {
 public:
  ProfilePathFacts facts(const std::filesystem::path& path) const override {
    ProfilePathFacts out;
    std::error_code ec;
    const auto status = std::filesystem::status(path, ec);
    out.exists = !ec && std::filesystem::exists(status);
    out.regular_file = out.exists && std::filesystem::is_regular_file(status);
    if (out.exists) out.owners = owners_of(path);
    return out;
  }
  std::optional<AccountId> current_user() const override {
    AccountId me = current_account();
    if (me.empty()) return std::nullopt;
    return me;
  }
};

}  // namespace

const ProfileFiles& system_profile_files() {
  static const WindowsProfileFiles files;
  return files;
}

}  // namespace tfwsl
