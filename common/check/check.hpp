#pragma once
// The check/report model shared by `tfwsl doctor`, `tfwsl-agent check` and the agent's /v1/checks.
// A check has a stable id (docs/doctor.md lists them), a status, a one-line summary, details (the
// facts behind it) and a fix a person can follow.

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace tfwsl {

enum class CheckStatus { ok, warn, fail, skip };

const char* to_string(CheckStatus status);
bool parse_check_status(const std::string& text, CheckStatus& out);

struct CheckResult {
  std::string id;  // "linux.dxg", "gpu.driver-parity"
  CheckStatus status = CheckStatus::skip;
  std::string summary;               // one line
  std::vector<std::string> details;  // the facts behind the verdict, shown with -v
  std::string fix;                   // what to do; empty when status is ok
  // When the fix is a tfwsl command (`tfwsl provision`), its arguments after "tfwsl": what `tfwsl
  // doctor --fix` runs. Empty when tfwsl cannot do it (a Windows driver, a reboot). The command
  // also stands in `fix`, for a person.
  std::vector<std::string> fix_command;
  // The versions and numbers behind the summary, for scripts ({"version": "12.2.140", "wanted": "12.2"}):
  // a reader never parses them out of `summary` or `details`. In the JSON only when not empty.
  nlohmann::json values = nlohmann::json::object();
  // Set by fold_report (check_fold.hpp): the root cause this check is an echo of (a check id, or a
  // precondition id such as "platform.windows"); empty when it stands on its own.
  std::string blocked_by;

  bool is_problem() const { return status == CheckStatus::warn || status == CheckStatus::fail; }
  // An issue of its own: a problem that is not folded under another check's fault.
  bool is_root_issue() const { return is_problem() && blocked_by.empty(); }
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

// A prerequisite that is not a check: on native Linux "platform.windows" is unmet.
struct Precondition {
  std::string id;  // "platform.windows"
  bool met = true;
  std::string why_not;  // "not Windows: host checks do not apply"
};

struct Report {
  std::vector<CheckResult> checks;
  // Filled by fold_report: the unmet preconditions checks fold under, and check ids in dependency
  // order (what "fix first" follows). Empty for a report that was never folded.
  std::vector<Precondition> unmet;
  std::vector<std::string> fix_order;

  const CheckResult* find(const std::string& id) const;
  // From the root causes: 0 none (all ok or skipped), 1 warnings only, 2 any failure. Folding never
  // hides a failure (a folded check hangs under a failing root), so this is also the worst of all.
  int exit_code() const;
  std::size_t problem_count() const;  // root causes (warn + fail, not folded)
  std::size_t problem_categories() const;
  std::size_t folded_count() const;  // checks folded under a root cause or precondition
  // The checks folded under `root` (a check id or a precondition id), in report order.
  std::vector<const CheckResult*> folded_under(const std::string& root) const;
};

nlohmann::json to_json(const CheckResult& check);
nlohmann::json to_json(const Report& report);
// Reads what to_json wrote; unknown statuses become errors in `error`.
bool from_json(const nlohmann::json& j, CheckResult& out, std::string& error);

struct RenderOptions {
  bool verbose = false;             // every check under its category, with the facts behind it
  bool color = false;               // VT colour sequences
  std::size_t width = 80;           // the terminal's columns: every line is wrapped to them
  bool unicode_marks = true;        // ✓ ✗; false: + x (a console that cannot show them)
  std::vector<std::string> header;  // what is judged ("profile ... from ..."), first, wrapped
};

// The mark of a status: ✓ ! ✗ - (ASCII: + ! x -).
const char* status_mark(CheckStatus status, bool unicode);

// Text form, flutter doctor's way: a header (what is judged), then one line per category with its
// own mark (the worst of its checks) and its lead fact ("[✓] WSL 2.1.5.0 (Store)"), and under it
// only what is wrong: each root cause with its fix, and one line counting what folded under it.
// With verbose every check is listed under its category with its details, and the folded ones
// under their root. An unmet precondition gets one line first. The end: "N issues in M
// categories" (root causes) and "Fix first: <id> — <fix>", or "No issues found.". Every line is
// wrapped to options.width with a hanging indent, never inside a command or a path.
std::string render_text(const Report& report, const RenderOptions& options);

}  // namespace tfwsl
