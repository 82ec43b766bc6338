#pragma once
// What the copy phase hands the committer: a file complete under its temporary name in the staging
// folder, with the manifest record it gets once committed.

#include <sys/types.h>

#include <cstddef>
#include <string>

#include "linux/dataset/manifest.hpp"

namespace tfwsl::dataset::import_detail {

struct Staged {
  std::size_t item = 0;  // index into the scan's items, for a retry
  std::string temp_name;
  ManifestEntry entry;
  bool synced = false;  // had its own fsync
  dev_t source_dev = 0;
  ino_t source_ino = 0;
  int attempts = 1;
};

}  // namespace tfwsl::dataset::import_detail
