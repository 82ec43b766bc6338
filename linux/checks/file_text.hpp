#pragma once
// Small file reads for the probes: /proc files report size 0, so read until EOF, bounded.

#include <filesystem>
#include <optional>
#include <string>

namespace tfwsl::linux_checks {

std::optional<std::string> read_text_file(const std::filesystem::path& path, std::size_t max_bytes = 1 << 20);
std::string trim(const std::string& text);

}  // namespace tfwsl::linux_checks

#include "common/process/process_runner.hpp"

namespace tfwsl::linux_checks {

// SystemProcessRunner can flag a child that had just closed its pipes as timed out and stop it
// (a race between the pipes' EOF and the exit). A real timeout has used up the time limit.
inline bool really_timed_out(const ProcessOutcome& outcome, const ProcessRequest& request) {
  return outcome.timed_out && outcome.elapsed + std::chrono::milliseconds(100) >= request.timeout;
}

}  // namespace tfwsl::linux_checks
