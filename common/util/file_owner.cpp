#include "common/util/file_owner.hpp"

#include <system_error>

namespace tfwsl {

std::vector<AccountId> owners_of(const std::filesystem::path& path) {
  std::vector<AccountId> owners;
  if (auto own = owner_of(path)) owners.push_back(*own);
  std::error_code ec;
  if (!std::filesystem::is_symlink(std::filesystem::symlink_status(path, ec))) return owners;
  auto named = owner_of(path, LinkRule::follow);
  if (!named) return {};  // a link whose file's owner cannot be read: judged as unknown, never as the link's alone
  if (owners.empty() || owners.front() != *named) owners.push_back(*named);
  return owners;
}

bool is_trusted_owner(const AccountId& owner, const AccountId& me) {
  return owner == me || owner == k_root_uid || owner == k_local_system_sid || owner == k_administrators_sid;
}

}  // namespace tfwsl
