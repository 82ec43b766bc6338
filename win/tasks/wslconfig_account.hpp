#pragma once
// The default .wslconfig (no --file) belongs to the account tfwsl runs as. Run as SYSTEM, as fleet
// engines run a resource, that is C:\\Windows\\system32\\config\\systemprofile\\.wslconfig, which WSL
// never reads: set would say done and test "in desired state" while the user's WSL is untouched.
// So the default is refused for SYSTEM and for a service account WSL never ran for
// (wslconfig::not_a_users_wslconfig), naming the fix: run as the user, or name the user's file.

#include <string>

#include "common/core/error.hpp"
#include "common/wslconfig/wslconfig_location.hpp"
#include "win/host/registry.hpp"
#include "win/tasks/machine.hpp"

namespace tfwsl::cli {

// This process's account: the token's user (common/util/file_owner.hpp), %USERPROFILE%, and whether
// HKCU\\...\\Lxss lists a distribution.
wslconfig::ProfileAccount running_profile_account(const wslconfig::EnvironmentLookup& getenv, host::Registry& registry);

// The .wslconfig to use when none is named: TFWSL_WSLCONFIG, else this account's own, refused as
// above when it is no user's.
Result<std::string> default_wslconfig_path(const wslconfig::EnvironmentLookup& getenv, Machine& machine);

}  // namespace tfwsl::cli
