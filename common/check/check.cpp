#include "common/check/check.hpp"

#include <map>
#include <set>

#include "common/core/terminal_style.hpp"

namespace tfwsl {

const char* to_string(CheckStatus status) {
  switch (status) {
    case CheckStatus::ok: return "ok";
    case CheckStatus::warn: return "warn";
    case CheckStatus::fail: return "fail";
    case CheckStatus::skip: return "skip";
  }
  return "skip";
}

bool parse_check_status(const std::string& text, CheckStatus& out) {
  static const std::map<std::string, CheckStatus> k_names{
      {"ok", CheckStatus::ok}, {"warn", CheckStatus::warn}, {"fail", CheckStatus::fail}, {"skip", CheckStatus::skip}};
  auto it = k_names.find(text);
  if (it == k_names.end()) return false;
  out = it->second;
  return true;
}

std::string check_category(const std::string& id) {
  auto dot = id.find('.');
  return dot == std::string::npos ? id : id.substr(0, dot);
}

const CheckResult* Report::find(const std::string& id) const {
  for (const auto& c : checks)
    if (c.id == id) return &c;
  return nullptr;
}

int Report::exit_code() const {
  int code = 0;
  for (const auto& c : checks) {
    if (c.status == CheckStatus::fail) return 2;
    if (c.status == CheckStatus::warn) code = 1;
  }
  return code;
}

std::size_t Report::problem_count() const {
  std::size_t n = 0;
  for (const auto& c : checks) n += (c.status == CheckStatus::warn || c.status == CheckStatus::fail);
  return n;
}

std::size_t Report::problem_categories() const {
  std::set<std::string> categories;
  for (const auto& c : checks)
    if (c.status == CheckStatus::warn || c.status == CheckStatus::fail) categories.insert(check_category(c.id));
  return categories.size();
}

nlohmann::json to_json(const CheckResult& c) {
  nlohmann::json j{{"id", c.id}, {"status", to_string(c.status)}, {"summary", c.summary}, {"details", c.details}, {"fix", c.fix}};
  if (c.values.is_object() && !c.values.empty()) j["values"] = c.values;
  return j;
}

nlohmann::json to_json(const Report& report) {
  nlohmann::json checks = nlohmann::json::array();
  for (const auto& c : report.checks) checks.push_back(to_json(c));
  return {{"checks", checks},
          {"summary",
           {{"issues", report.problem_count()}, {"categories", report.problem_categories()}, {"exit_code", report.exit_code()}}}};
}

bool from_json(const nlohmann::json& j, CheckResult& out, std::string& error) {
  if (!j.is_object() || !j.contains("id") || !j["id"].is_string() || !j.contains("status") || !j["status"].is_string()) {
    error = "a check needs string fields 'id' and 'status'";
    return false;
  }
  out.id = j["id"].get<std::string>();
  if (!parse_check_status(j["status"].get<std::string>(), out.status)) {
    error = "check " + out.id + ": unknown status '" + j["status"].get<std::string>() + "'";
    return false;
  }
  out.summary = j.value("summary", std::string());
  out.fix = j.value("fix", std::string());
  out.details.clear();
  if (j.contains("details") && j["details"].is_array())
    for (const auto& d : j["details"])
      if (d.is_string()) out.details.push_back(d.get<std::string>());
  out.values = j.contains("values") && j["values"].is_object() ? j["values"] : nlohmann::json::object();
  return true;
}

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

}  // namespace

std::string render_text(const Report& report, const RenderOptions& options) {
  // Categories in order of first appearance, checks in report order within each.
  std::vector<std::string> order;
  std::map<std::string, std::vector<const CheckResult*>> groups;
  for (const auto& c : report.checks) {
    auto cat = check_category(c.id);
    if (!groups.count(cat)) order.push_back(cat);
    groups[cat].push_back(&c);
  }
  std::string out;
  for (const auto& cat : order) {
    out += cat + "\n";
    for (const auto* c : groups[cat]) {
      out += "  ";
      if (options.color) out += color_of(c->status);
      out += mark(c->status);
      if (options.color) out += terminal_style::k_reset;
      out += " " + c->id + ": " + c->summary + "\n";
      if (options.verbose)
        for (const auto& d : c->details) out += "      " + d + "\n";
      if ((c->status == CheckStatus::warn || c->status == CheckStatus::fail) && !c->fix.empty())
        out += "      fix: " + c->fix + "\n";
    }
  }
  auto n = report.problem_count();
  if (n == 0) {
    out += "\nNo issues found.\n";
  } else {
    auto m = report.problem_categories();
    out += "\n" + std::to_string(n) + (n == 1 ? " issue" : " issues") + " in " + std::to_string(m) +
           (m == 1 ? " category" : " categories") + "\n";
  }
  return out;
}

}  // namespace tfwsl
