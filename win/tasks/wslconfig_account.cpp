#include "win/tasks/wslconfig_account.hpp"

#include "common/process/process_runner.hpp"
#include "common/util/file_owner.hpp"
#include "win/host/registry.hpp"
#include "win/platform/host_platform.hpp"

namespace tfwsl::cli {

wslconfig::ProfileAccount running_profile_account(const wslconfig::EnvironmentLookup& getenv) {
  wslconfig::ProfileAccount account;
  account.sid = current_account();
  account.profile = getenv("USERPROFILE").value_or("");
  account.has_wsl_registration = !make_system_registry()->subkeys(host::reg::k_lxss).empty();
  return account;
}

Result<std::string> default_wslconfig_path(const wslconfig::EnvironmentLookup& getenv) {
  if (!getenv(wslconfig::k_wslconfig_env))
    if (auto why = wslconfig::not_a_users_wslconfig(running_profile_account(getenv)))
      return make_error(ErrorCode::permission, *why);
  SystemProcessRunner runner;
  return wslconfig::locate_wslconfig(getenv, runner, read_system_info().is_windows);
}

}  // namespace tfwsl::cli
