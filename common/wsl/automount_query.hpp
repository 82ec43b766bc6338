#pragma once
// Where a distro mounts the Windows drives, asked of the distro itself: `wslpath -u '<drive>:\'`
// (wslpath ships in every WSL distro and applies /etc/wsl.conf's [automount] root), so a distro
// with `root = /` or `/windir/` is mapped as it really is. The one way the Windows side learns it.

#include <string>

#include "common/wsl/wsl_client.hpp"

namespace tfwsl::wsl {

// The distro's automount root for `drive` ("/mnt/", "/windir/", "/"); WSL's default "/mnt/" (and a
// warning in the log) when wslpath gives no usable answer. `distro` empty: the default distro.
std::string query_automount_root(WslClient& wsl, const std::string& distro, char drive);

}  // namespace tfwsl::wsl
