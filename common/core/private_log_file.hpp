#pragma once
// The log file records what the program did (the agent: every request path), so only its user may
// read it. Used by logging.cpp through spdlog's file event handlers, for the first file and for every
// file a rotation starts.

#include <cstdio>
#include <filesystem>

namespace tfwsl {

// Creates `path` if it is missing, readable and writable by its owner only (POSIX mode 0600); a
// failure is left for the log sink's own open to report.
void create_private_log_file(const std::filesystem::path& path);

// Takes group and other permissions away from an open log file that existed before (a loose 0644
// left by an older run). Windows: nothing (the file inherits its folder's ACL).
void restrict_log_file(std::FILE* file);

}  // namespace tfwsl
