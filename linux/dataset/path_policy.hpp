#pragma once
// Which source and target an import may use, decided before any I/O: both resolved (symlinks
// followed), neither inside the other nor the same folder (by path and by inode, so that a bind
// mount or another name of the same folder counts too), and, for the agent, both under the roots
// it was given. POSIX implementation (path_policy_posix.cpp).

#include <filesystem>
#include <vector>

#include "common/core/error.hpp"

namespace tfwsl::dataset {

struct ResolvedImportPaths {
  std::filesystem::path source;  // canonical, an existing directory
  std::filesystem::path target;  // canonical prefix + the not-yet-existing rest
};

// Resolves both paths and refuses a missing source, a source that is not a directory, a target that
// exists and is not a directory, and any overlap: the same directory, a target inside the source,
// or a source inside the target (where --move would write over, then delete, the source's files).
// Overlap is judged on the resolved paths and on the (st_dev, st_ino) of every ancestor of each
// against the other (check_disjoint_folders).
Result<ResolvedImportPaths> resolve_import_paths(const std::filesystem::path& source,
                                                 const std::filesystem::path& target);

// The inode half of the overlap rule on open folders: invalid_input when source_fd's folder is
// target_fd's or lies beneath it, or the reverse, found by walking ".." from each (across mount
// points, to the root) and comparing (st_dev, st_ino). The names are for messages. The engine
// runs it again on the descriptors it imports through, so a path swapped after the check is judged
// by what was actually opened.
Status check_disjoint_folders(int source_fd, int target_fd, const std::filesystem::path& source,
                              const std::filesystem::path& target);

// Whether `resolved` (already canonical) lies under one of `roots` (resolved here); names the roots
// in the error. An empty root list refuses everything: the agent must be told where data may go.
Status check_under_roots(const std::filesystem::path& resolved, const std::vector<std::filesystem::path>& roots,
                         const char* what);

// Lexical: whether `inner` equals `outer` or lies below it (both absolute and normal).
bool is_same_or_inside(const std::filesystem::path& inner, const std::filesystem::path& outer);

}  // namespace tfwsl::dataset
