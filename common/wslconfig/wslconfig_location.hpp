#pragma once
// Where %UserProfile%\.wslconfig is, for the doctor and `tfwsl wslconfig`: TFWSL_WSLCONFIG when set
// (tests and the Wine stand-in world point it elsewhere), else %USERPROFILE%\.wslconfig on Windows.
// On Linux inside WSL the Windows profile is asked for through interop (cmd.exe /C echo
// %USERPROFILE%, then wslpath -u); on plain Linux there is none and `--file` is required.

#include <functional>
#include <optional>
#include <string>

#include "common/core/error.hpp"
#include "common/process/process_runner.hpp"

namespace tfwsl::wslconfig {

inline constexpr const char* k_wslconfig_env = "TFWSL_WSLCONFIG";

using EnvironmentLookup = std::function<std::optional<std::string>(const std::string& name)>;

// TFWSL_WSLCONFIG, else %USERPROFILE%\.wslconfig; nothing when neither variable is set.
std::optional<std::string> windows_wslconfig_path(const EnvironmentLookup& getenv);

// Who runs tfwsl, as far as choosing the default .wslconfig goes.
struct ProfileAccount {
  std::string sid;                    // the token's user ("S-1-5-18"); a uid on Linux, where no SID is SYSTEM
  std::string profile;                // %USERPROFILE% as this process sees it
  bool has_wsl_registration = false;  // HKCU\...\Lxss lists a distribution for this account
};

// Why this account's own .wslconfig is no user's, with the fix; nothing when it may be used.
// SYSTEM (S-1-5-18, or the profile C:\Windows\system32\config\systemprofile), as fleet engines run
// a resource, always: WSL is per user and never reads SYSTEM's file. A service account (LocalService,
// NetworkService, a virtual service account, a profile under ServiceProfiles) when WSL has never
// run for it. Only the default is judged: an explicit --file (DSC's "file") names the user's file.
std::optional<std::string> not_a_users_wslconfig(const ProfileAccount& account);

// The default file for `tfwsl wslconfig`: windows_wslconfig_path on Windows; on Linux
// TFWSL_WSLCONFIG, else (inside WSL: WSL_DISTRO_NAME set) the Windows profile through interop,
// else an error saying to pass --file.
Result<std::string> locate_wslconfig(const EnvironmentLookup& getenv, ProcessRunner& runner, bool is_windows);

}  // namespace tfwsl::wslconfig
