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
    out.owner = st.st_uid;
    out.device = static_cast<std::uint64_t>(st.st_dev);
    // stat(2) judges the file a link ends at; a link another user owns is theirs whatever it
    // points at (a root-owned file, which would pass as trusted): it counts as the link owner's.
    struct stat link {};
    if (::lstat(path.c_str(), &link) == 0 && S_ISLNK(link.st_mode) && link.st_uid != 0 && link.st_uid != ::geteuid())
      out.owner = link.st_uid;
    return out;
  }
  std::optional<std::uint64_t> current_user() const override { return ::geteuid(); }
};

}  // namespace

const ProfileFiles& system_profile_files() {
  static const PosixProfileFiles files;
  return files;
}

}  // namespace tfwsl
