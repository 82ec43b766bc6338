#pragma once
// What `tfwsl wslconfig set|unset|restore` leaves beside .wslconfig, for `tfwsl uninstall`
// (docs/uninstall.md): its backups ("<file>.tfwsl-backup-STAMP", wslconfig_backups.hpp) and its lock
// file ("<file>.tfwsl-lock", wslconfig_file.hpp). The file itself is the user's and stays, with
// whatever tfwsl set in it; so does the oldest backup, the file as it was before tfwsl first wrote
// it, for `tfwsl wslconfig restore` (or a copy by hand) to put back.

#include <string>
#include <vector>

#include "common/core/error.hpp"
#include "win/agent_service/leftovers.hpp"

namespace tfwsl::cli {

// The items for the .wslconfig at `path` (after its link, as the backups are written), each to
// remove or left alone with why; none when there is neither the file nor anything of tfwsl's.
std::vector<agent_service::Leftover> wslconfig_leftovers(const std::string& path);

// Removes one of them: a regular file still, never a link (the entry's own status).
Status remove_host_leftover(const agent_service::Leftover& item);

}  // namespace tfwsl::cli
