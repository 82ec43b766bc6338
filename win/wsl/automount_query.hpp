#pragma once
// Where a distro mounts the Windows drives, asked of the distro itself: `wslpath -u '<drive>:\'`
// (wslpath ships in every WSL distro and applies /etc/wsl.conf's [automount] root), so a distro
// with `root = /` or `/windir/` is mapped as it really is. The one way tfwsl learns it: from Windows
// through wsl.exe, and inside a distro (tfwsl built natively) by running wslpath there.

#include <string>

#include "common/process/process_runner.hpp"
#include "win/wsl/wsl_client.hpp"

namespace tfwsl::wsl {

// The distro's automount root for `drive` ("/mnt/", "/windir/", "/"); WSL's default "/mnt/" (and a
// warning in the log) when wslpath gives no usable answer. `distro` empty: the default distro.
std::string query_automount_root(WslClient& wsl, const std::string& distro, char drive);

// The same, asked of the Linux tfwsl runs on: `wslpath -u 'C:\'` run here. On a Linux that is not
// WSL (no wslpath) WSL's default "/mnt/" without a word; a wslpath that answers nothing usable
// gives the default and a warning, as above.
std::string local_automount_root(ProcessRunner& runner);

}  // namespace tfwsl::wsl
