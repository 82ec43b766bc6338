#pragma once
// Which source and target an import may use, decided before any I/O: both resolved (symlinks
// followed), the target neither the source nor inside it, and, for the agent, both under the roots
// it was given. POSIX implementation (path_policy_posix.cpp): the agent is the only caller.

#include <filesystem>
#include <vector>

#include "common/core/error.hpp"

namespace tfwsl::dataset {

struct ResolvedImportPaths {
  std::filesystem::path source;  // canonical, an existing directory
  std::filesystem::path target;  // canonical prefix + the not-yet-existing rest
};

// Resolves both paths and refuses a missing source, a source that is not a directory, a target that
// exists and is not a directory, the same directory, or a target inside the source.
Result<ResolvedImportPaths> resolve_import_paths(const std::filesystem::path& source,
                                                 const std::filesystem::path& target);

// Whether `resolved` (already canonical) lies under one of `roots` (resolved here); names the roots
// in the error. An empty root list refuses everything: the agent must be told where data may go.
Status check_under_roots(const std::filesystem::path& resolved, const std::vector<std::filesystem::path>& roots,
                         const char* what);

// Lexical: whether `inner` equals `outer` or lies below it (both absolute and normal).
bool is_same_or_inside(const std::filesystem::path& inner, const std::filesystem::path& outer);

}  // namespace tfwsl::dataset
