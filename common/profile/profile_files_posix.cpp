#include <sys/stat.h>
#include <unistd.h>

#include "common/profile/profile_files.hpp"

namespace tfwsl {
namespace {

class PosixProfileFiles final : public ProfileFiles {
 public:
  ProfilePathFacts facts(const std::filesystem::path& path) const override {
    ProfilePathFacts out;
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) return out;
    out.exists = true;
    out.regular_file = S_ISREG(st.st_mode);
    out.owners = owners_of(path);
    out.device = static_cast<std::uint64_t>(st.st_dev);
    return out;
  }
  std::optional<AccountId> current_user() const override { return current_account(); }
};

}  // namespace

const ProfileFiles& system_profile_files() {
  static const PosixProfileFiles files;
  return files;
}

}  // namespace tfwsl
