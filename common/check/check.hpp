#pragma once
// The check/report model shared by `tfwsl doctor`, `tfwsl-agent check` and the agent's /v1/checks.
// A check has a stable id (docs/doctor.md lists them), a status, a one-line summary, details (the
// facts behind it) and a fix a person can follow.

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace tfwsl {

enum class CheckStatus { ok, warn, fail, skip };

const char* to_string(CheckStatus status);
bool parse_check_status(const std::string& text, CheckStatus& out);

struct CheckResult {
  std::string id;        // "linux.dxg", "gpu.driver-parity"
  CheckStatus status = CheckStatus::skip;
  std::string summary;   // one line
  std::vector<std::string> details;  // the facts behind the verdict, shown with -v
  std::string fix;       // what to do; empty when status is ok
  // The versions and numbers behind the summary, for scripts ({"version": "12.2.140", "wanted": "12.2"}):
  // a reader never parses them out of `summary` or `details`. In the JSON only when not empty.
  nlohmann::json values = nlohmann::json::object();
};

// A verdict in one expression: make_check("host.tdr", CheckStatus::warn, "summary", "fix").
inline CheckResult make_check(std::string id, CheckStatus status, std::string summary, std::string fix = {}) {
  CheckResult r;
  r.id = std::move(id);
  r.status = status;
  r.summary = std::move(summary);
  r.fix = std::move(fix);
  return r;
}

// The category of an id is its first dotted component: "linux.dxg" -> "linux".
std::string check_category(const std::string& id);

struct Report {
  std::vector<CheckResult> checks;

  const CheckResult* find(const std::string& id) const;
  // 0 all ok (or skipped), 1 warnings only, 2 any failure.
  int exit_code() const;
  std::size_t problem_count() const;    // warn + fail
  std::size_t problem_categories() const;
};

nlohmann::json to_json(const CheckResult& check);
nlohmann::json to_json(const Report& report);
// Reads what to_json wrote; unknown statuses become errors in `error`.
bool from_json(const nlohmann::json& j, CheckResult& out, std::string& error);

struct RenderOptions {
  bool verbose = false;  // show details under every line
  bool color = false;    // VT colour sequences
};

// Text form: grouped by category, ✓ / ! / ✗ / - per line, the fix under every problem, and
// "N issues in M categories" (or "No issues found.") at the end.
std::string render_text(const Report& report, const RenderOptions& options);

}  // namespace tfwsl
