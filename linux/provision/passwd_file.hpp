#pragma once
// The users of a distro kept under another root (a probe root: TFWSL_PROBE_ROOT), read from its own
// <root>/etc/passwd (passwd(5): name:password:uid:gid:gecos:home:shell) instead of this machine's
// getpwnam(), whose users belong to the build machine.

#include <filesystem>
#include <optional>
#include <string>

#include "common/core/error.hpp"
#include "linux/provision/step_process.hpp"

namespace tfwsl::provision {

// not_found when <root>/etc/passwd has no line for `name` (or cannot be read).
Result<DistroUser> find_distro_user_in(const std::filesystem::path& root, const std::string& name);

// The first user with 1000 <= uid < 60000 in <root>/etc/passwd (login.defs' UID_MIN..UID_MAX).
std::optional<std::string> first_ordinary_user_in(const std::filesystem::path& root);

}  // namespace tfwsl::provision
