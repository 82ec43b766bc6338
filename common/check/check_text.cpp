// render_text (check.hpp): the report as a person reads it, with echoes folded under their root.
#include <map>

#include "common/check/check.hpp"
#include "common/check/check_fold.hpp"
#include "common/core/terminal_style.hpp"

namespace tfwsl {
namespace {

const char* mark(CheckStatus s) {
  switch (s) {
    case CheckStatus::ok: return "\xE2\x9C\x93";    // ✓
    case CheckStatus::warn: return "!";
    case CheckStatus::fail: return "\xE2\x9C\x97";  // ✗
    case CheckStatus::skip: return "-";
  }
  return "-";
}

const char* color_of(CheckStatus s) {
  switch (s) {
    case CheckStatus::ok: return terminal_style::k_green;
    case CheckStatus::warn: return terminal_style::k_yellow;
    case CheckStatus::fail: return terminal_style::k_red;
    case CheckStatus::skip: return terminal_style::k_dim;
  }
  return "";
}

std::string marked(CheckStatus s, const RenderOptions& options) {
  if (!options.color) return mark(s);
  return std::string(color_of(s)) + mark(s) + terminal_style::k_reset;
}

std::string plural(std::size_t n, const char* one, const char* many) { return std::to_string(n) + " " + (n == 1 ? one : many); }

// "17 checks not run because of this" or "18 checks folded under this (17 not run, 1 failed as a
// result)"; the folded checks themselves one per line with -v.
std::string fold_lines(const std::vector<const CheckResult*>& folded, const std::string& reason, const std::string& indent,
                       const RenderOptions& options) {
  if (folded.empty()) return {};
  std::size_t not_run = 0;
  for (const auto* c : folded) not_run += c->status == CheckStatus::skip;
  std::string line = not_run == folded.size()
                         ? plural(folded.size(), "check", "checks") + " not run" + reason
                         : plural(folded.size(), "check", "checks") + " folded under this (" + std::to_string(not_run) +
                               " not run, " + std::to_string(folded.size() - not_run) + " failing as a result)";
  std::string out = indent + line + (options.verbose ? ":\n" : " (-v lists them)\n");
  if (options.verbose)
    for (const auto* c : folded) out += indent + "  " + marked(c->status, options) + " " + c->id + ": " + c->summary + "\n";
  return out;
}

std::string check_lines(const Report& report, const CheckResult& c, const RenderOptions& options) {
  std::string out = "  " + marked(c.status, options) + " " + c.id + ": " + c.summary + "\n";
  if (options.verbose)
    for (const auto& d : c.details) out += "      " + d + "\n";
  if (c.is_problem() && !c.fix.empty()) out += "      fix: " + c.fix + "\n";
  out += fold_lines(report.folded_under(c.id), " because of this", "      ", options);
  return out;
}

std::string summary_lines(const Report& report) {
  auto n = report.problem_count();
  if (n == 0) return "\nNo issues found.\n";
  std::size_t echoes = report.folded_count();
  for (const auto& p : report.unmet) echoes -= report.folded_under(p.id).size();
  std::string out = "\n" + plural(n, "issue", "issues") + " in " + plural(report.problem_categories(), "category", "categories");
  if (echoes > 0) out += ", " + plural(echoes, "check", "checks") + " folded under " + (n == 1 ? "it" : "them");
  const CheckResult* first = root_causes(report).front();
  out += "\nFix first: " + first->id + " \xE2\x80\x94 " + (first->fix.empty() ? first->summary : first->fix) + "\n";  // —
  return out;
}

}  // namespace

std::string render_text(const Report& report, const RenderOptions& options) {
  std::string out;
  for (const auto& p : report.unmet) out += fold_lines(report.folded_under(p.id), ": " + p.why_not, "", options);
  // Categories in order of first appearance (folded checks count, so the order does not depend on
  // what folded), checks in report order within each; folded checks appear only under their root,
  // and a category with nothing else is not shown.
  std::vector<std::string> order;
  std::map<std::string, std::vector<const CheckResult*>> groups;
  for (const auto& c : report.checks) {
    auto cat = check_category(c.id);
    if (!groups.count(cat)) order.push_back(cat);
    auto& group = groups[cat];
    if (c.blocked_by.empty()) group.push_back(&c);
  }
  for (const auto& cat : order) {
    if (groups[cat].empty()) continue;
    out += cat + "\n";
    for (const auto* c : groups[cat]) out += check_lines(report, *c, options);
  }
  return out + summary_lines(report);
}

}  // namespace tfwsl
