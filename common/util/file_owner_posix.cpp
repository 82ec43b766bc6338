#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "common/util/file_owner.hpp"

namespace tfwsl {

std::optional<AccountId> owner_of(const std::filesystem::path& path, LinkRule links) {
  struct stat st {};
  if ((links == LinkRule::follow ? ::stat(path.c_str(), &st) : ::lstat(path.c_str(), &st)) != 0) return std::nullopt;
  return std::to_string(st.st_uid);
}

AccountId current_account() { return std::to_string(::geteuid()); }

bool running_privileged() { return ::geteuid() == 0; }

Status give_to(const std::filesystem::path& path, const AccountId& owner) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0)
    return make_error(ErrorCode::io, "cannot give " + path.string() + " to uid " + owner + ": " + std::strerror(errno));
  const auto uid = static_cast<uid_t>(std::stoul(owner));
  // With the owner's primary group: root's group on a file in a user's folder would let root's
  // group read it and keep the user's own group out.
  const passwd* account = ::getpwuid(uid);
  const gid_t gid = account ? account->pw_gid : static_cast<gid_t>(-1);
  if (::lchown(path.c_str(), uid, gid) != 0)
    return make_error(ErrorCode::io, "cannot give " + path.string() + " to uid " + owner + ": " + std::strerror(errno));
  return {};
}

}  // namespace tfwsl
