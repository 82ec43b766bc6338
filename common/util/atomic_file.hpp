#pragma once
// Writing a file so that a reader (or a crash) only ever sees the old bytes or the new ones: the
// filesystem port behind `tfwsl wslconfig set`, `tfwsl profile` and migrate's Windows-side files
// (docs/wslconfig.md, "Backup and atomicity").
//
// replace_file_atomically writes a temporary file in the target's folder, flushes it to the disk,
// closes it, then swaps it in: ReplaceFileW over an existing file, MoveFileExW(MOVEFILE_REPLACE_EXISTING |
// MOVEFILE_WRITE_THROUGH) when there is none (atomic_file_windows.cpp); rename(2) and an fsync of
// the folder on POSIX (atomic_file_posix.cpp). A failure removes the temporary file and leaves the
// target as it was.
//
// The temporary file is created exclusively and never through a link (O_CREAT | O_EXCL | O_NOFOLLOW;
// CREATE_NEW | FILE_FLAG_OPEN_REPARSE_POINT), under a name with a random suffix: a file or a link
// planted under a name it might pick is never opened, only stepped around (another name is tried).
//
// The stop port: a program may name a stage at which replace_file_atomically ends the process
// without cleaning up, so tests can show the target is never truncated or missing:
//   half_written  after half of the temporary file's bytes are written and flushed
//   before_swap   after the whole temporary file is flushed, before the swap
// The process exits with k_replace_fault_exit_code (TerminateProcess on Windows, _exit on POSIX:
// no destructors, no buffered output flushed, as a power cut or a kill would leave it). Only the
// test program sets it (tests/helpers/test_mains, from its own settings); the shipped programs
// never do, and nothing outside the program (no variable, no file) can.

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "common/core/error.hpp"
#include "common/util/file_owner.hpp"

namespace tfwsl {

inline constexpr int k_replace_fault_exit_code = 137;

enum class ReplaceFault { none, half_written, before_swap };

// The stage at which replace_file_atomically ends the process (none: it never does).
void set_replace_stop_stage(ReplaceFault stage);
ReplaceFault replace_stop_stage();

// What every temporary name for `target` starts with: ".<name>.tfwsl-tmp-" in the same folder (the
// swap never crosses a filesystem); 16 random hex digits follow.
std::string temporary_name_prefix(const std::filesystem::path& target);
// A fresh candidate: the prefix and a new random suffix.
std::filesystem::path random_temporary_path(const std::filesystem::path& target);
// How many names replace_file_atomically tries before it gives up (each taken one is stepped around).
inline constexpr int k_temporary_name_attempts = 16;

// The permission bits a new file gets when there is nothing to copy them from (rw-r--r--).
inline constexpr std::filesystem::perms k_new_file_perms =
    std::filesystem::perms::owner_read | std::filesystem::perms::owner_write | std::filesystem::perms::group_read |
    std::filesystem::perms::others_read;

// Replaces (or creates) `target` with `bytes` as described above. The new file keeps the old one's
// permission bits (POSIX; on Windows ReplaceFileW keeps its attributes and ACL). A target that is
// write-protected (no write bit, or not writable by this user; the read-only attribute on Windows)
// is refused with ErrorCode::permission, and nothing is written. With `owner` (a privileged run
// writing a user's file: privileged_target.hpp) the new file is given to that account before the swap.
Status replace_file_atomically(const std::filesystem::path& target, std::string_view bytes,
                               const std::optional<AccountId>& owner = std::nullopt);

// Creates `path`, which must not exist yet (a backup is never overwritten, a link is never
// followed), with `bytes`, flushed, with `perms` (POSIX). A name that is taken is ErrorCode::conflict,
// so a caller can take the next one. With `owner`, the file is given to that account.
Status write_new_file(const std::filesystem::path& path, std::string_view bytes,
                      std::filesystem::perms perms = k_new_file_perms,
                      const std::optional<AccountId>& owner = std::nullopt);

// True when `path` names an existing file that must not be written: no write permission bit at all,
// not writable by this process (POSIX access(2)), or the read-only attribute (Windows).
bool is_write_protected(const std::filesystem::path& path);

// Ends the process now if `stage` is the stop stage (used by both ports).
void maybe_fault(ReplaceFault stage);

// UTF-8 text of a path for messages (no locale involved).
std::string shown_path(const std::filesystem::path& path);

}  // namespace tfwsl
