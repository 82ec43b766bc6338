#pragma once
// The backups `tfwsl wslconfig set|unset|restore` leave beside .wslconfig
// ("<path>.tfwsl-backup-20261201-161500", "-2" when that second was taken; wslconfig_file.hpp):
// listed newest first, and pruned to the last five and the first (the file as it was before tfwsl
// first wrote it, which no count of edits may lose). Only names of exactly that form are tfwsl's;
// any other file beside .wslconfig is the user's and never touched.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/util/file_owner.hpp"

namespace tfwsl::cli {

struct WslconfigBackup {
  std::string path;   // UTF-8
  std::string stamp;  // "20261201-161500" or "20261201-161500-2"
  std::uintmax_t size = 0;
};

// Whether `file_name` is one of tfwsl's backup names for the file named `of_name` (".wslconfig").
bool is_tfwsl_backup_name(const std::string& file_name, const std::string& of_name);

// tfwsl's backups of `path`, newest first (by their stamp, which sorts as the time it says): regular
// files by their own status (a link named like a backup is none, wherever it points), and with
// `owner` (WriteOwnership::owner of a guarded privileged run) only those that account owns. They
// are written beside the file a link ends at: pass that file (WslconfigFile::target,
// wslconfig_link_target), not the link.
std::vector<WslconfigBackup> list_wslconfig_backups(const std::string& path,
                                                    const std::optional<AccountId>& owner = std::nullopt);

// Removes tfwsl's backups of `path` (as listed, with `owner`) beyond the newest `keep`, except the
// oldest, which is always kept; returns the paths removed. A backup that cannot be removed is left
// (the next write tries again).
std::vector<std::string> prune_wslconfig_backups(const std::string& path,
                                                 const std::optional<AccountId>& owner = std::nullopt,
                                                 std::size_t keep = 5);

}  // namespace tfwsl::cli
