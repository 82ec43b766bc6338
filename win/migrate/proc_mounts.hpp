#pragma once
// Which Windows drives a distro mounts, from its /proc/mounts: the mount points "<root><letter>"
// of the file systems WSL uses for drives (9p, drvfs, virtiofs).

#include <set>
#include <string_view>

namespace tfwsl::migrate {

std::set<char> drives_in_proc_mounts(std::string_view proc_mounts);

}  // namespace tfwsl::migrate
