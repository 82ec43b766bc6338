// render_text (check.hpp): the report as a person reads it, flutter doctor's way: one line per
// category, what is wrong under it, echoes folded under their root, wrapped to the terminal.
#include <algorithm>
#include <map>

#include "common/check/check.hpp"
#include "common/check/check_fold.hpp"
#include "common/check/check_table.hpp"
#include "common/check/command_words.hpp"
#include "common/core/terminal_style.hpp"
#include "common/util/plural.hpp"
#include "common/util/text_wrap.hpp"
#include "common/util/visible_text.hpp"

namespace tfwsl {
namespace {

const char* color_of(CheckStatus s) {
  switch (s) {
    case CheckStatus::ok:
      return terminal_style::k_green;
    case CheckStatus::warn:
      return terminal_style::k_yellow;
    case CheckStatus::fail:
      return terminal_style::k_red;
    case CheckStatus::skip:
      return terminal_style::k_dim;
  }
  return "";
}

std::string marked(CheckStatus s, const RenderOptions& options) {
  if (!options.color) return status_mark(s, options.unicode_marks);
  return std::string(color_of(s)) + status_mark(s, options.unicode_marks) + terminal_style::k_reset;
}

// A category's heading (check_table.hpp); an id outside the table gets its category as its title.
CheckCategory heading_of(const std::string& category) {
  if (const CheckCategory* known = find_check_category(category)) return *known;
  return {category, category, ""};
}

class Renderer {
 public:
  Renderer(const Report& report, const RenderOptions& options) : m_report(report), m_options(options) {}

  // `text` wrapped: the first line starts with `first`, the others with `hanging` spaces. The text
  // holds facts from the agent and the host (a GPU name, a distro's name, a path): shown visibly,
  // so an escape sequence or a line break in one can neither act on the terminal nor forge a line.
  void say(const std::string& first, const std::string& text, std::size_t hanging) {
    WrapStyle style;
    style.width = m_options.width;
    style.first_indent = first;
    style.hanging_indent = std::string(hanging, ' ');
    style.starts_command = starts_known_command;
    m_out += wrap_text(visible_text(text), style);
  }

  void folded_lines(const std::string& root, const std::string& reason, std::size_t indent) {
    const auto folded = m_report.folded_under(root);
    if (folded.empty()) return;
    std::size_t not_run = 0;
    for (const auto* c : folded) not_run += c->status == CheckStatus::skip;
    std::string line = not_run == folded.size() ? plural(folded.size(), "check", "checks") + " not run" + reason
                                                : plural(folded.size(), "check", "checks") + " folded under this (" +
                                                      std::to_string(not_run) + " not run, " +
                                                      std::to_string(folded.size() - not_run) + " failing as a result)";
    say(std::string(indent, ' '), line + (m_options.verbose ? ":" : ""), indent + 2);
    if (!m_options.verbose) return;
    for (const auto* c : folded)
      say(std::string(indent + 2, ' ') + marked(c->status, m_options) + " ", c->id + ": " + c->summary, indent + 4);
  }

  // A check under its category: its line, with -v its facts, its fix, and what folded under it.
  void check_lines(const CheckResult& c, bool with_summary) {
    std::size_t indent = 4;
    if (with_summary) {
      say("    " + marked(c.status, m_options) + " ", c.id + ": " + c.summary, 6);
      indent = 6;
    }
    if (m_options.verbose)
      for (const auto& d : c.details) say(std::string(indent + 2, ' '), d, indent + 4);
    if (c.is_problem() && !c.fix.empty()) say(std::string(indent, ' ') + "fix: ", c.fix, indent + 5);
    folded_lines(c.id, " because of this", indent);
  }

  // The category's line: its worst root cause when it has one (its fix right under it), else its
  // lead fact; then its other root causes. With -v every check follows, each with its fix.
  // Its mark is the worst of all its checks, those folded under another's fault included (they are
  // counted on the line, not shown: they are echoes, listed under their root).
  void category(const std::string& name, const std::vector<const CheckResult*>& checks,
                const std::vector<const CheckResult*>& echoes) {
    const CheckCategory heading = heading_of(name);
    CheckStatus worst = CheckStatus::skip;
    for (const auto* c : checks) worst = worse(worst, c->status);
    const CheckResult* head = checks.front();
    for (const auto* c : checks)
      if (c->id == heading.lead) head = c;
    for (const auto* c : checks)
      if (c->is_problem() && c->status == worst) {
        head = c;
        break;
      }
    std::string line = head->summary;
    if (line.rfind(std::string(heading.title), 0) != 0) line = std::string(heading.title) + ": " + line;
    line += echoes_note(echoes, worst);
    say("[" + marked(worst, m_options) + "] ", line, 4);
    if (m_options.verbose) {
      for (const auto* c : checks) check_lines(*c, true);
      return;
    }
    if (head->is_problem()) check_lines(*head, false);
    for (const auto* c : checks)
      if (c != head && c->is_problem()) check_lines(*c, true);
  }

  std::string render() {
    for (const auto& h : m_options.header) say("", h, 2);
    if (!m_options.header.empty()) m_out += "\n";
    for (const auto& p : m_report.unmet) folded_lines(p.id, ": " + p.why_not, 0);
    // Categories in order of first appearance (folded checks count, so the order does not depend on
    // what folded), checks in report order within each; folded checks appear only under their root,
    // and a category with nothing else is not shown.
    std::vector<std::string> order;
    std::map<std::string, std::vector<const CheckResult*>> groups, echoes;
    for (const auto& c : m_report.checks) {
      auto cat = check_category(c.id);
      if (!groups.count(cat) && !echoes.count(cat)) order.push_back(cat);  // once, folded or not
      (c.blocked_by.empty() ? groups : echoes)[cat].push_back(&c);
    }
    for (const auto& cat : order)
      if (!groups[cat].empty()) category(cat, groups[cat], echoes[cat]);
    summary();
    return m_out;
  }

 private:
  // " (1 failing because of host.gpu-driver-model)" when echoes are worse than the checks shown;
  // `worst` becomes their status.
  static std::string echoes_note(const std::vector<const CheckResult*>& echoes, CheckStatus& worst) {
    CheckStatus echoed = CheckStatus::skip;
    for (const auto* c : echoes) echoed = worse(echoed, c->status);
    if (worse(worst, echoed) == worst || echoed == CheckStatus::skip) return "";
    worst = echoed;
    std::size_t n = 0;
    for (const auto* c : echoes) n += c->status == echoed;
    const auto* first =
        *std::find_if(echoes.begin(), echoes.end(), [&](const CheckResult* c) { return c->status == echoed; });
    return " (" + std::to_string(n) + (echoed == CheckStatus::fail ? " failing" : " warning") + " because of " +
           first->blocked_by + ")";
  }

  static CheckStatus worse(CheckStatus a, CheckStatus b) {
    auto rank = [](CheckStatus s) {
      return s == CheckStatus::fail ? 3 : s == CheckStatus::warn ? 2 : s == CheckStatus::ok ? 1 : 0;
    };
    return rank(b) > rank(a) ? b : a;
  }

  void summary() {
    const auto n = m_report.problem_count();
    // The same count as the JSON's summary.folded: every folded check, under a root or a precondition.
    const std::size_t folded = m_report.folded_count();
    const std::string listed = m_options.verbose || folded == 0 ? "" : " (-v lists them)";
    if (n == 0) {
      m_out += "\nNo issues found.\n";
      return;
    }
    std::string line =
        plural(n, "issue", "issues") + " in " + plural(m_report.problem_categories(), "category", "categories");
    if (folded > 0) line += ", " + plural(folded, "check", "checks") + " folded" + listed;
    m_out += "\n";
    say("", line, 2);
    const CheckResult* first = root_causes(m_report).front();
    const std::string dash = m_options.unicode_marks ? " \xE2\x80\x94 " : " - ";  // —
    say("Fix first: ", first->id + dash + (first->fix.empty() ? first->summary : first->fix), 2);
  }

  const Report& m_report;
  const RenderOptions& m_options;
  std::string m_out;
};

}  // namespace

const char* status_mark(CheckStatus s, bool unicode) {
  switch (s) {
    case CheckStatus::ok:
      return unicode ? "\xE2\x9C\x93" : "+";  // ✓
    case CheckStatus::warn:
      return "!";
    case CheckStatus::fail:
      return unicode ? "\xE2\x9C\x97" : "x";  // ✗
    case CheckStatus::skip:
      return "-";
  }
  return "-";
}

std::string render_text(const Report& report, const RenderOptions& options) {
  return Renderer(report, options).render();
}

}  // namespace tfwsl
