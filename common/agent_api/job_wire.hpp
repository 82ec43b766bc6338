#pragma once
// A dataset import job on the wire (GET /v1/jobs/<id>, docs/datasets.md "Agent API"): its state and
// its progress, written by the agent (linux/dataset) and read by the push client (win/push) from the
// one definition here. Each field's key is spelled once, in the table both directions walk.

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/core/error.hpp"

namespace tfwsl::agent_api {

enum class ImportPhase { starting, scanning, copying, finishing, done };
const char* to_string(ImportPhase phase);
std::optional<ImportPhase> parse_import_phase(std::string_view text);

enum class JobStatus { running, succeeded, failed, cancelled };
const char* to_string(JobStatus status);
std::optional<JobStatus> parse_job_status(std::string_view text);

struct JobProgress {
  ImportPhase phase = ImportPhase::starting;
  std::uint64_t files_total = 0;  // regular files and symlinks found by the scan
  std::uint64_t bytes_total = 0;
  std::uint64_t files_done = 0;  // copied + skipped (already there) + given up on
  std::uint64_t bytes_done = 0;
  std::uint64_t files_copied = 0;
  std::uint64_t files_skipped = 0;  // already in the target (resume)
  std::uint64_t files_moved = 0;    // source deleted after a verified copy (--move)
  std::uint64_t problems = 0;       // per-file problems reported
  double elapsed_seconds = 0;
  double bytes_per_second = 0;  // copied bytes over the copy phase so far
  std::optional<double> eta_seconds;
  std::string current_file;  // escaped for display
};

nlohmann::json to_json(const JobProgress& progress);
// A field absent is its default (an older agent); one of the wrong type, or a phase this side does
// not know, is an error (ErrorCode::parse) naming it.
Result<JobProgress> parse_job_progress(const nlohmann::json& j);

// A finished import's result: the totals, the per-file problems (paths escaped for display, the
// list capped), and the names Windows could not show or re-create.
struct ImportProblem {
  std::string path;
  std::string kind;  // "unreadable", "vanished", ...
  std::string message;
};

struct ImportResult {
  JobProgress totals;
  std::vector<ImportProblem> problems;
  std::uint64_t problems_not_listed = 0;  // beyond the list's cap
  std::vector<std::string> windows_unfriendly_names;
};

nlohmann::json to_json(const ImportResult& result);
Result<ImportResult> parse_import_result(const nlohmann::json& j);

// The job as the push client reads it: `id` and `state` are required; `result` (succeeded) and
// `error` (failed, cancelled) as the agent gives them.
struct JobState {
  std::string id;
  JobStatus status = JobStatus::running;
  JobProgress progress;
  std::optional<ImportResult> result;
  std::string error_code;
  std::string error_message;

  bool finished() const { return status != JobStatus::running; }
};

Result<JobState> parse_job_state(const nlohmann::json& j);

}  // namespace tfwsl::agent_api
