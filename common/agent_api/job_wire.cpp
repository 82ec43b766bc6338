#include "common/agent_api/job_wire.hpp"

#include <array>
#include <concepts>
#include <string>
#include <type_traits>
#include <utility>

#include "common/agent_api/field_table.hpp"

namespace tfwsl::agent_api {
namespace {

using nlohmann::json;

constexpr std::array<std::pair<ImportPhase, const char*>, 5> k_phases = {{{ImportPhase::starting, "starting"},
                                                                          {ImportPhase::scanning, "scanning"},
                                                                          {ImportPhase::copying, "copying"},
                                                                          {ImportPhase::finishing, "finishing"},
                                                                          {ImportPhase::done, "done"}}};
constexpr std::array<std::pair<JobStatus, const char*>, 4> k_statuses = {{{JobStatus::running, "running"},
                                                                          {JobStatus::succeeded, "succeeded"},
                                                                          {JobStatus::failed, "failed"},
                                                                          {JobStatus::cancelled, "cancelled"}}};

template <class Enum, std::size_t N>
const char* name_of(const std::array<std::pair<Enum, const char*>, N>& names, Enum value) {
  for (const auto& [v, name] : names)
    if (v == value) return name;
  return "unknown";
}

template <class Enum, std::size_t N>
std::optional<Enum> value_of(const std::array<std::pair<Enum, const char*>, N>& names, std::string_view text) {
  for (const auto& [v, name] : names)
    if (text == name) return v;
  return std::nullopt;
}

// The progress's fields, once: visit(key, member) for each, in the wire's terms.
template <class Progress, class Visit>
requires std::same_as<std::remove_const_t<Progress>, JobProgress>
void fields(Progress& p, Visit&& visit) {
  visit("phase", p.phase);
  visit("files_total", p.files_total);
  visit("bytes_total", p.bytes_total);
  visit("files_done", p.files_done);
  visit("bytes_done", p.bytes_done);
  visit("files_copied", p.files_copied);
  visit("files_skipped", p.files_skipped);
  visit("files_moved", p.files_moved);
  visit("problems", p.problems);
  visit("elapsed_seconds", p.elapsed_seconds);
  visit("bytes_per_second", p.bytes_per_second);
  visit("eta_seconds", p.eta_seconds);
  visit("current_file", p.current_file);
}

Error shape(const std::string& what) { return Error{ErrorCode::parse, "the agent's job answer: " + what, {}, {}}; }

// One field read from `v` into `out`; false when it has the wrong type.
bool take(const json& v, ImportPhase& out) {
  const auto phase = v.is_string() ? parse_import_phase(v.get<std::string>()) : std::nullopt;
  if (phase) out = *phase;
  return phase.has_value();
}
bool take(const json& v, std::optional<double>& out) {
  if (v.is_null()) return true;
  if (!v.is_number()) return false;
  out = v.get<double>();
  return true;
}
bool take(const json& v, std::uint64_t& out) {
  if (!v.is_number_unsigned()) return false;
  out = v.get<std::uint64_t>();
  return true;
}
bool take(const json& v, double& out) {
  if (!v.is_number()) return false;
  out = v.get<double>();
  return true;
}
bool take(const json& v, std::string& out) {
  if (!v.is_string()) return false;
  out = v.get<std::string>();
  return true;
}

}  // namespace

const char* to_string(ImportPhase phase) { return name_of(k_phases, phase); }
std::optional<ImportPhase> parse_import_phase(std::string_view text) { return value_of(k_phases, text); }
const char* to_string(JobStatus status) { return name_of(k_statuses, status); }
std::optional<JobStatus> parse_job_status(std::string_view text) { return value_of(k_statuses, text); }

json to_json(const JobProgress& progress) {
  return field_table::written(progress, [](const auto& part, auto&& visit) { fields(part, visit); });
}

Result<JobProgress> parse_job_progress(const json& j) {
  if (!j.is_object()) return tl::unexpected(shape("progress is not an object"));
  JobProgress p;
  std::string wrong;
  fields(p, [&](const char* key, auto& member) {
    const auto it = j.find(key);
    if (wrong.empty() && it != j.end() && !take(*it, member)) wrong = key;
  });
  if (!wrong.empty()) return tl::unexpected(shape("progress." + wrong + " has the wrong type or an unknown value"));
  return p;
}

json to_json(const ImportResult& result) {
  json problems = json::array();
  for (const auto& p : result.problems)
    problems.push_back({{"path", p.path}, {"kind", p.kind}, {"message", p.message}});
  return {{"totals", to_json(result.totals)},
          {"problems", problems},
          {"problems_not_listed", result.problems_not_listed},
          {"windows_unfriendly_names", result.windows_unfriendly_names}};
}

Result<ImportResult> parse_import_result(const json& j) {
  if (!j.is_object()) return tl::unexpected(shape("result is not an object"));
  ImportResult r;
  if (j.contains("totals")) {
    TFWSL_TRY(totals, parse_job_progress(j["totals"]));
    r.totals = totals;
  }
  const json problems = j.value("problems", json::array());
  if (!problems.is_array()) return tl::unexpected(shape("result.problems is not a list"));
  for (const auto& p : problems) {
    ImportProblem problem;
    if (!p.is_object() || !take(p.value("path", json("")), problem.path) ||
        !take(p.value("kind", json("")), problem.kind) || !take(p.value("message", json("")), problem.message))
      return tl::unexpected(shape("result.problems holds an entry that is not {path, kind, message} strings"));
    r.problems.push_back(std::move(problem));
  }
  if (j.contains("problems_not_listed") && !take(j["problems_not_listed"], r.problems_not_listed))
    return tl::unexpected(shape("result.problems_not_listed is not a count"));
  for (const auto& name : j.value("windows_unfriendly_names", json::array())) {
    std::string text;
    if (!take(name, text)) return tl::unexpected(shape("result.windows_unfriendly_names holds a non-string"));
    r.windows_unfriendly_names.push_back(std::move(text));
  }
  return r;
}

Result<JobState> parse_job_state(const json& j) {
  if (!j.is_object()) return tl::unexpected(shape("not an object"));
  if (!j.contains("id") || !j["id"].is_string()) return tl::unexpected(shape("id: missing or not a string"));
  const auto status =
      j.contains("state") && j["state"].is_string() ? parse_job_status(j["state"].get<std::string>()) : std::nullopt;
  if (!status) return tl::unexpected(shape("state: missing, not a string or not a state this side knows"));
  JobState s;
  s.id = j["id"].get<std::string>();
  s.status = *status;
  if (j.contains("progress")) {
    TFWSL_TRY(progress, parse_job_progress(j["progress"]));
    s.progress = progress;
  }
  if (j.contains("result") && !j["result"].is_null()) {
    TFWSL_TRY(result, parse_import_result(j["result"]));
    s.result = std::move(result);
  }
  if (j.contains("error") && j["error"].is_object()) {
    s.error_code = j["error"].value("code", std::string());
    s.error_message = j["error"].value("message", std::string());
  }
  return s;
}

}  // namespace tfwsl::agent_api
