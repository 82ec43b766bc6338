#include "win/push/job_state.hpp"

namespace tfwsl::push {
namespace {

Error shape(const std::string& what) { return Error{ErrorCode::parse, "the agent's job answer: " + what, {}, {}}; }

}  // namespace

Result<JobProgress> parse_job_progress(const nlohmann::json& j) {
  if (!j.is_object()) return tl::unexpected(shape("progress is not an object"));
  JobProgress p;
  try {
    p.phase = j.value("phase", std::string());
    p.files_total = j.value("files_total", std::uint64_t{0});
    p.files_done = j.value("files_done", std::uint64_t{0});
    p.bytes_total = j.value("bytes_total", std::uint64_t{0});
    p.bytes_done = j.value("bytes_done", std::uint64_t{0});
    p.files_copied = j.value("files_copied", std::uint64_t{0});
    p.files_skipped = j.value("files_skipped", std::uint64_t{0});
    p.files_moved = j.value("files_moved", std::uint64_t{0});
    p.problems = j.value("problems", std::uint64_t{0});
    p.elapsed_seconds = j.value("elapsed_seconds", 0.0);
    p.bytes_per_second = j.value("bytes_per_second", 0.0);
    if (j.contains("eta_seconds") && j["eta_seconds"].is_number()) p.eta_seconds = j["eta_seconds"].get<double>();
    p.current_file = j.value("current_file", std::string());
  } catch (const nlohmann::json::exception& e) {
    return tl::unexpected(shape(std::string("progress has a field of the wrong type (") + e.what() + ")"));
  }
  return p;
}

nlohmann::json to_json(const JobProgress& p) {
  return {{"phase", p.phase},
          {"files_total", p.files_total},
          {"files_done", p.files_done},
          {"bytes_total", p.bytes_total},
          {"bytes_done", p.bytes_done},
          {"files_copied", p.files_copied},
          {"files_skipped", p.files_skipped},
          {"files_moved", p.files_moved},
          {"problems", p.problems},
          {"elapsed_seconds", p.elapsed_seconds},
          {"bytes_per_second", p.bytes_per_second},
          {"eta_seconds", p.eta_seconds ? nlohmann::json(*p.eta_seconds) : nlohmann::json(nullptr)}};
}

Result<JobState> parse_job_state(const nlohmann::json& j) {
  if (!j.is_object()) return tl::unexpected(shape("not an object"));
  if (!j.contains("id") || !j["id"].is_string()) return tl::unexpected(shape("id: missing or not a string"));
  if (!j.contains("state") || !j["state"].is_string()) return tl::unexpected(shape("state: missing or not a string"));
  JobState s;
  s.id = j["id"].get<std::string>();
  s.state = j["state"].get<std::string>();
  if (j.contains("progress")) {
    TFWSL_TRY(progress, parse_job_progress(j["progress"]));
    s.progress = progress;
  }
  if (j.contains("result")) s.result = j["result"];
  if (j.contains("error") && j["error"].is_object()) {
    s.error_code = j["error"].value("code", std::string());
    s.error_message = j["error"].value("message", std::string());
  }
  return s;
}

}  // namespace tfwsl::push
