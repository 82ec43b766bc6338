#pragma once
// How much a push will copy, measured on the CLI's side before the agent copies anything: the
// files and bytes under SRC as this machine sees it (a Windows folder on Windows, read natively, not
// through 9P). Symlinks are counted, never followed, as the engine copies them; a `.tfwsl-import`
// at the top is left out as the engine leaves it out.

#include <cstdint>
#include <string>
#include <vector>

#include "common/core/error.hpp"

namespace tfwsl::push {

struct SourceTree {
  std::uint64_t files = 0;       // regular files and symlinks
  std::uint64_t folders = 0;     // below the source folder
  std::uint64_t bytes = 0;       // the regular files' sizes
  std::uint64_t unreadable = 0;  // entries that could not be examined (the engine reports them by name)
};

// not_found when SRC does not exist, invalid_input when it is not a folder. Entries whose name is
// in `exclude` (UTF-8, matched exactly at any depth) are left out as the engine leaves them out: a
// folder of such a name with everything under it.
Result<SourceTree> measure_source_tree(const std::string& source_utf8, const std::vector<std::string>& exclude = {});

}  // namespace tfwsl::push
