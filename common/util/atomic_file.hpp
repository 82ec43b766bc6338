#pragma once
// Writing a file so that a reader (or a crash) only ever sees the old bytes or the new ones: the
// filesystem port behind `tfwsl wslconfig set` (docs/wslconfig.md, "Backup and atomicity").
//
// replace_file_atomically writes a temporary file in the target's folder, flushes it to the disk,
// then swaps it in: ReplaceFileW over an existing file, MoveFileExW(MOVEFILE_REPLACE_EXISTING |
// MOVEFILE_WRITE_THROUGH) when there is none (atomic_file_windows.cpp); rename(2) and an fsync of
// the folder on POSIX (atomic_file_posix.cpp). A failure removes the temporary file and leaves the
// target as it was.
//
// Test hook: TFWSL_TEST_REPLACE_FAULT, read only here, ends the process without cleaning up in the
// middle of replace_file_atomically, so tests can show the target is never truncated or missing:
//   half-written  after half of the temporary file's bytes are written and flushed
//   before-swap   after the whole temporary file is flushed, before the swap
// The process exits with k_replace_fault_exit_code (TerminateProcess on Windows, _exit on POSIX:
// no destructors, no buffered output flushed, as a power cut or a kill would leave it).

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "common/core/error.hpp"

namespace tfwsl {

inline constexpr const char* k_replace_fault_env = "TFWSL_TEST_REPLACE_FAULT";
inline constexpr int k_replace_fault_exit_code = 137;

enum class ReplaceFault { none, half_written, before_swap };

// The stage named by TFWSL_TEST_REPLACE_FAULT (none when unset or unknown).
ReplaceFault replace_fault_from_environment();

// The name of the temporary file for `target`: ".<name>.tfwsl-tmp-<pid>" in the same folder, so
// the swap never crosses a filesystem.
std::filesystem::path temporary_path_for(const std::filesystem::path& target);

// Replaces (or creates) `target` with `bytes` as described above.
Status replace_file_atomically(const std::filesystem::path& target, std::string_view bytes);

// Creates `path`, which must not exist yet (a backup is never overwritten), with `bytes`, flushed.
Status write_new_file(const std::filesystem::path& path, std::string_view bytes);

// Ends the process now if `stage` is the fault the environment asks for (used by both ports).
void maybe_fault(ReplaceFault stage);

// UTF-8 text of a path for messages (no locale involved).
std::string shown_path(const std::filesystem::path& path);

}  // namespace tfwsl
