#pragma once
// The .wslconfig file for `tfwsl wslconfig`: read as bytes (a missing file is an empty one), and
// written through the atomic-replace port (common/util/atomic_file.hpp) after a timestamped backup
// beside it, then read back and compared with what was meant.

#include <chrono>
#include <optional>
#include <string>

#include "common/core/error.hpp"

namespace tfwsl::cli {

struct WslconfigFile {
  std::string path;    // UTF-8, as given or located
  bool exists = false;
  std::string bytes;   // empty when it does not exist
};

// Reads `path`; a folder, or a file that cannot be read, is an error that names it.
Result<WslconfigFile> read_wslconfig_file(const std::string& path);

// "<path>.tfwsl-backup-20261201-161500" (UTC); "-2", "-3", ... when that name is taken.
std::string backup_path_for(const std::string& path, std::chrono::system_clock::time_point when);

struct WriteOutcome {
  std::optional<std::string> backup;  // where the old bytes went (nothing: there was no file)
};

// Backup (when the file exists), atomic replace with `new_bytes`, read back and compare. An error
// says what state the file is in and where the backup is.
Result<WriteOutcome> write_wslconfig_file(const WslconfigFile& file, const std::string& new_bytes);

}  // namespace tfwsl::cli
