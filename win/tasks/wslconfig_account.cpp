#include "win/tasks/wslconfig_account.hpp"

#include "common/util/file_owner.hpp"
#include "win/host/registry.hpp"

namespace tfwsl::cli {

wslconfig::ProfileAccount running_profile_account(const wslconfig::EnvironmentLookup& getenv,
                                                  host::Registry& registry) {
  wslconfig::ProfileAccount account;
  account.sid = current_account();
  account.profile = getenv("USERPROFILE").value_or("");
  account.has_wsl_registration = !registry.subkeys(host::reg::k_lxss).empty();
  return account;
}

Result<std::string> default_wslconfig_path(const wslconfig::EnvironmentLookup& getenv, Machine& machine) {
  if (!getenv(wslconfig::k_wslconfig_env))
    if (auto why = wslconfig::not_a_users_wslconfig(running_profile_account(getenv, machine.registry)))
      return make_error(ErrorCode::permission, *why);
  return wslconfig::locate_wslconfig(getenv, machine.processes, machine.host.system().is_windows);
}

}  // namespace tfwsl::cli
