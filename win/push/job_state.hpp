#pragma once
// A dataset job as the agent answers it (GET /v1/jobs/<id>, docs/datasets.md "Agent API"), read by
// the push client. Lenient about fields it does not know, strict about the ones it uses.

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "common/core/error.hpp"

namespace tfwsl::push {

struct JobProgress {
  std::string phase;  // "scanning", "copying", ...
  std::uint64_t files_total = 0, files_done = 0, bytes_total = 0, bytes_done = 0;
  std::uint64_t files_copied = 0, files_skipped = 0, files_moved = 0, problems = 0;
  double elapsed_seconds = 0, bytes_per_second = 0;
  std::optional<double> eta_seconds;
  std::string current_file;
};

struct JobState {
  std::string id;
  std::string state;  // running, succeeded, failed, cancelled
  JobProgress progress;
  nlohmann::json result;   // succeeded: totals, problems, windows_unfriendly_names
  std::string error_code;  // failed / cancelled
  std::string error_message;

  bool finished() const { return state != "running"; }
};

// Errors: parse, naming the field.
Result<JobState> parse_job_state(const nlohmann::json& j);
Result<JobProgress> parse_job_progress(const nlohmann::json& j);
nlohmann::json to_json(const JobProgress& progress);

}  // namespace tfwsl::push
