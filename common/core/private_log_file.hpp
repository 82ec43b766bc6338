#pragma once
// The log file records what the program did (the agent: every request path), so only its user may
// read it, and a program that may run as root must not write it through a link somebody planted
// (docs/safety-sweep.md, F1). Used by logging.cpp through spdlog's file event handlers, for the
// first file and for every file a rotation starts: spdlog opens by path, so the file is opened and
// judged here first, and the file spdlog then opened must be that same file.

#include <cstdio>
#include <filesystem>

namespace tfwsl {

// Which file was judged (device and inode on POSIX); spdlog's own open must land on it.
struct LogFileIdentity {
  unsigned long long device = 0;
  unsigned long long inode = 0;
};

// Creates `path` if it is missing, readable and writable by its owner only (POSIX mode 0600), and
// opens it without following a link and without blocking. Throws std::runtime_error saying what is
// wrong when the path is a link, not a regular file, or a file another user owns. Windows: nothing
// (the sink creates the file in the user's folder, and it takes that folder's ACL).
LogFileIdentity open_private_log_file(const std::filesystem::path& path);

// Throws when `file` is not the file `expected` names (a link swapped in after the judgement), then
// takes group and other permissions away from a file that existed before (a loose 0644 left by an
// older run). Windows: nothing.
void check_opened_log_file(std::FILE* file, const LogFileIdentity& expected);

}  // namespace tfwsl
