#pragma once
// The .wslconfig file for `tfwsl wslconfig`: read as bytes (a missing file is an empty one; anything
// but a regular file, or a link to one, is refused; at most k_max_wslconfig_bytes), and written
// through the atomic-replace port (common/util/atomic_file.hpp) after a backup beside it, then read
// back and compared with what was meant. A link is written through: its target is the file that
// is read, locked, backed up and replaced, and the link stays a link. A privileged run in a folder
// another account owns follows the rule of common/util/privileged_target.hpp instead: the file
// itself a link, or another's link on the way, is refused by name; the file, its backup and the
// lock are given to the file's owner.

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

#include "common/core/error.hpp"
#include "common/util/file_lock.hpp"
#include "common/util/privileged_target.hpp"

namespace tfwsl::cli {

// A .wslconfig is a few dozen lines: a megabyte is no .wslconfig (and /dev/zero is refused sooner).
inline constexpr std::uintmax_t k_max_wslconfig_bytes = 1u << 20;
// How long `set` waits for another tfwsl changing the same file.
inline constexpr std::chrono::seconds k_wslconfig_lock_wait{30};

struct WslconfigFile {
  std::string path;    // UTF-8, as given or located
  std::string target;  // the file read and written: `path`, or the file its link chain ends at
  bool exists = false;
  std::string bytes;         // empty when it does not exist
  WriteOwnership ownership;  // judged before the read (judge_write_target): whose its files are
  bool is_link() const { return target != path; }
};

// Judges `path` by the privileged rule, then reads it; a folder, a device, a FIFO, a file too
// large, a dangling link, a link the rule refuses, or a file that cannot be read is an error that
// names it and the fix.
Result<WslconfigFile> read_wslconfig_file(const std::string& path);

// The file a link chain ends at (the link itself stays); `path` when it is no link. A link to
// nothing is not_found, naming what it points to.
Result<std::string> wslconfig_link_target(const std::string& path);

// The lock beside the file: "<target>.tfwsl-lock", held while a change re-reads, backs up and writes.
Result<FileLock> lock_wslconfig_file(const WslconfigFile& file);

// Refuses a read-only file (before anything is asked or written): names it and the fix.
Status check_writable(const WslconfigFile& file);

// "<target>.tfwsl-backup-20261201-161500" (UTC): the first name of a backup at `when`.
std::string backup_base_for(const std::string& target, std::chrono::system_clock::time_point when);

struct WriteOutcome {
  std::optional<std::string> backup;  // where the old bytes went (nothing: there was no file)
};

// Backup (when the file exists: the first free name of base, base-2, base-3, ..., created
// exclusively, with the file's permission bits), atomic replace with `new_bytes`, read back and
// compare. An error says what state the file is in and where the backup is. Call with the lock held
// and `file` read under it.
Result<WriteOutcome> write_wslconfig_file(const WslconfigFile& file, const std::string& new_bytes);

}  // namespace tfwsl::cli
