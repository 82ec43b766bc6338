#include "common/util/privileged_target.hpp"

#include <string>
#include <system_error>

#include "common/util/atomic_file.hpp"

namespace tfwsl {
namespace {

namespace fs = std::filesystem;

const char* privileged_words() {
#ifdef _WIN32
  return "as an administrator or SYSTEM";
#else
  return "as root";
#endif
}

std::string shown_account(const AccountId& id) {
#ifdef _WIN32
  return id;
#else
  return "uid " + id;
#endif
}

Status refuse_link(const fs::path& file, const fs::path& link, const std::string& why) {
  return make_error(ErrorCode::permission,
                    "refusing " + shown_path(file) + " " + privileged_words() + ": " + shown_path(link) + " " + why +
                        "; nothing was read or written (run tfwsl as the user who owns the folder, or name the "
                        "file the link leads to with --file)");
}

// Every link on the way to `file`, the file itself included, must be this account's or the folder
// owner's: anyone else's could lead the write into a folder neither of them meant (root's own,
// too: a user's link in /tmp to a file in /etc).
Status check_links_on_the_way(const fs::path& file, const AccountId& me, const AccountId& folder_owner) {
  fs::path at;
  for (const fs::path& part : file) {
    at /= part;
    std::error_code ec;
    if (!fs::is_symlink(fs::symlink_status(at, ec))) continue;
    const auto owner = owner_of(at);
    if (owner && (*owner == me || *owner == folder_owner)) continue;
    return refuse_link(file, at,
                       std::string(at == file ? "is" : "on the way is") + " a link owned by " +
                           (owner ? shown_account(*owner) : "an unknown account") +
                           ", neither this account nor the owner of the folder it leads to");
  }
  return {};
}

}  // namespace

Result<WriteOwnership> judge_write_target(const fs::path& path) {
  WriteOwnership out;
  if (!running_privileged()) return out;
  std::error_code ec;
  const fs::path file = fs::absolute(path, ec).lexically_normal();
  if (ec) return out;
  const fs::path folder = fs::weakly_canonical(file.parent_path(), ec);
  const auto folder_owner = ec ? std::nullopt : owner_of(folder);
  if (!folder_owner) return out;  // no owners known (Wine): nothing to judge by
  const AccountId me = current_account();
  TFWSL_TRY_STATUS(check_links_on_the_way(file, me, *folder_owner));
  if (*folder_owner == me) return out;  // its own folder: its own links are its own
  out.guarded = true;
  if (fs::is_symlink(fs::symlink_status(file, ec)))
    TFWSL_TRY_STATUS(
        refuse_link(file, file, "is a link in a folder owned by " + shown_account(*folder_owner) + ", not followed"));
  out.owner = owner_of(file).value_or(*folder_owner);
  return out;
}

}  // namespace tfwsl
