#include "common/agent_api/provision_recap.hpp"

#include <algorithm>
#include <array>
#include <initializer_list>
#include <utility>

#include "common/agent_api/field_table.hpp"
#include "common/core/exit_codes.hpp"

namespace tfwsl::agent_api {
namespace {

using nlohmann::json;

constexpr std::array<std::pair<StepResult, const char*>, 4> k_results = {{{StepResult::ok, "ok"},
                                                                          {StepResult::changed, "changed"},
                                                                          {StepResult::failed, "failed"},
                                                                          {StepResult::skipped, "skipped"}}};

// Each part's fields, once: visit(key, member).
template <class Counts, class Visit>
void count_fields(Counts& c, Visit&& visit) {
  visit("ok", c.ok);
  visit("changed", c.changed);
  visit("failed", c.failed);
  visit("skipped", c.skipped);
}

template <class Step, class Visit>
void step_fields(Step& s, Visit&& visit) {
  visit("id", s.id);
  visit("title", s.title);
  visit("result", s.result);
  visit("message", s.message);
  visit("log", s.log);
}

template <class Recap, class Visit>
void recap_fields(Recap& r, Visit&& visit) {
  visit("check_mode", r.check_mode);
  visit("run", r.run);
  visit("state_dir", r.state_dir);
  visit("interrupted_step", r.interrupted_step);
}

Error shape(const std::string& what) { return Error{ErrorCode::parse, "the agent's provision recap: " + what, {}, {}}; }

bool take(const json& v, std::string& out) {
  if (!v.is_string()) return false;
  out = v.get<std::string>();
  return true;
}
bool take(const json& v, bool& out) {
  if (!v.is_boolean()) return false;
  out = v.get<bool>();
  return true;
}
bool take(const json& v, std::size_t& out) {
  if (!v.is_number_unsigned()) return false;
  out = v.get<std::size_t>();
  return true;
}
bool take(const json& v, StepResult& out) {
  const auto r = v.is_string() ? parse_step_result(v.get<std::string>()) : std::nullopt;
  if (r) out = *r;
  return r.has_value();
}
bool take(const json& v, std::optional<std::string>& out) {
  if (v.is_null()) return true;
  if (!v.is_string()) return false;
  out = v.get<std::string>();
  return true;
}

// `part`'s fields from `j`; the first key of the wrong type, or "" when all are right. `required`
// keys must be there; the others keep their defaults when absent.
template <class Part, class Fields>
std::string read_fields(const json& j, Part& part, Fields&& fields, std::initializer_list<std::string_view> required) {
  std::string wrong;
  fields(part, [&](const char* key, auto& member) {
    const auto it = j.find(key);
    const bool needed = std::find(required.begin(), required.end(), key) != required.end();
    if (!wrong.empty()) return;
    if (it == j.end() ? needed : !take(*it, member)) wrong = key;
  });
  return wrong;
}

}  // namespace

const char* to_string(StepResult result) {
  for (const auto& [v, name] : k_results)
    if (v == result) return name;
  return "skipped";
}

std::optional<StepResult> parse_step_result(std::string_view text) {
  for (const auto& [v, name] : k_results)
    if (text == name) return v;
  return std::nullopt;
}

std::size_t ProvisionRecap::count(StepResult result) const {
  std::size_t n = 0;
  for (const auto& s : steps) n += s.result == result ? 1 : 0;
  return n;
}

RecapCounts ProvisionRecap::counts() const {
  return {count(StepResult::ok), count(StepResult::changed), count(StepResult::failed), count(StepResult::skipped)};
}

int ProvisionRecap::exit_code() const {
  if (count(StepResult::failed) > 0) return exit_code::k_failure;
  return check_mode && count(StepResult::changed) > 0 ? exit_code::k_warning : exit_code::k_ok;
}

json to_json(const StepRecord& step) {
  json out = field_table::written(step, [](const auto& part, auto&& visit) { step_fields(part, visit); });
  if (step.log.empty()) out.erase("log");
  return out;
}

json to_json(const RecapCounts& counts) {
  return field_table::written(counts, [](const auto& part, auto&& visit) { count_fields(part, visit); });
}

json to_json(const ProvisionRecap& recap) {
  json out = field_table::written(recap, [](const auto& part, auto&& visit) { recap_fields(part, visit); });
  json steps = json::array();
  for (const auto& s : recap.steps) steps.push_back(to_json(s));
  out["steps"] = std::move(steps);
  out["counts"] = to_json(recap.counts());
  return out;
}

Result<StepRecord> parse_step_record(const json& j) {
  if (!j.is_object()) return tl::unexpected(shape("a step is not an object"));
  StepRecord s;
  const std::string wrong =
      read_fields(j, s, [](auto& part, auto&& visit) { step_fields(part, visit); }, {"id", "result"});
  if (!wrong.empty()) return tl::unexpected(shape("a step's " + wrong + " is missing or of the wrong type"));
  return s;
}

Result<RecapCounts> parse_recap_counts(const json& j) {
  if (!j.is_object()) return tl::unexpected(shape("counts is not an object"));
  RecapCounts c;
  const std::string wrong = read_fields(j, c, [](auto& part, auto&& visit) { count_fields(part, visit); },
                                        {"ok", "changed", "failed", "skipped"});
  if (!wrong.empty()) return tl::unexpected(shape("counts." + wrong + " is missing or not a count"));
  return c;
}

Result<ProvisionRecap> parse_provision_recap(const json& j) {
  if (!j.is_object()) return tl::unexpected(shape("not an object"));
  ProvisionRecap r;
  const std::string wrong = read_fields(j, r, [](auto& part, auto&& visit) { recap_fields(part, visit); }, {});
  if (!wrong.empty()) return tl::unexpected(shape(wrong + " is missing or of the wrong type"));
  const auto steps = j.find("steps");
  if (steps == j.end() || !steps->is_array()) return tl::unexpected(shape("steps is missing or not a list"));
  for (const auto& s : *steps) {
    TFWSL_TRY(step, parse_step_record(s));
    r.steps.push_back(std::move(step));
  }
  return r;
}

}  // namespace tfwsl::agent_api
