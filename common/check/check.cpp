#include "common/check/check.hpp"

#include <map>
#include <set>

#include "common/check/check_fold.hpp"

namespace tfwsl {

const char* to_string(CheckStatus status) {
  switch (status) {
    case CheckStatus::ok:
      return "ok";
    case CheckStatus::warn:
      return "warn";
    case CheckStatus::fail:
      return "fail";
    case CheckStatus::skip:
      return "skip";
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
    if (!c.is_root_issue()) continue;
    if (c.status == CheckStatus::fail) return 2;
    code = 1;
  }
  return code;
}

std::size_t Report::problem_count() const {
  std::size_t n = 0;
  for (const auto& c : checks) n += c.is_root_issue();
  return n;
}

std::size_t Report::problem_categories() const {
  std::set<std::string> categories;
  for (const auto& c : checks)
    if (c.is_root_issue()) categories.insert(check_category(c.id));
  return categories.size();
}

std::size_t Report::folded_count() const {
  std::size_t n = 0;
  for (const auto& c : checks) n += !c.blocked_by.empty();
  return n;
}

std::vector<const CheckResult*> Report::folded_under(const std::string& root) const {
  std::vector<const CheckResult*> out;
  for (const auto& c : checks)
    if (c.blocked_by == root) out.push_back(&c);
  return out;
}

nlohmann::json to_json(const CheckResult& c) {
  nlohmann::json j{
      {"id", c.id}, {"status", to_string(c.status)}, {"summary", c.summary}, {"details", c.details}, {"fix", c.fix}};
  if (c.values.is_object() && !c.values.empty()) j["values"] = c.values;
  if (!c.fix_command.empty()) j["fix_command"] = c.fix_command;  // the tfwsl arguments `doctor --fix` runs
  if (!c.blocked_by.empty()) j["blocked_by"] = c.blocked_by;     // folded under this root cause
  return j;
}

nlohmann::json to_json(const Report& report) {
  nlohmann::json checks = nlohmann::json::array();
  for (const auto& c : report.checks) checks.push_back(to_json(c));
  nlohmann::json roots = nlohmann::json::array();
  const auto root_list = root_causes(report);
  for (const auto* c : root_list) roots.push_back(c->id);
  nlohmann::json fix_first;  // null when there is nothing to fix
  if (!root_list.empty())
    fix_first = {
        {"id", root_list.front()->id}, {"summary", root_list.front()->summary}, {"fix", root_list.front()->fix}};
  return {{"checks", checks},
          {"summary",
           {{"issues", report.problem_count()},
            {"categories", report.problem_categories()},
            {"exit_code", report.exit_code()},
            {"root_causes", roots},
            {"fix_first", fix_first},
            {"folded", report.folded_count()}}}};
}

bool from_json(const nlohmann::json& j, CheckResult& out, std::string& error) {
  if (!j.is_object() || !j.contains("id") || !j["id"].is_string() || !j.contains("status") ||
      !j["status"].is_string()) {
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
  out.blocked_by = j.value("blocked_by", std::string());
  out.fix_command.clear();
  if (j.contains("fix_command") && j["fix_command"].is_array())
    for (const auto& a : j["fix_command"])
      if (a.is_string()) out.fix_command.push_back(a.get<std::string>());
  out.details.clear();
  if (j.contains("details") && j["details"].is_array())
    for (const auto& d : j["details"])
      if (d.is_string()) out.details.push_back(d.get<std::string>());
  out.values = j.contains("values") && j["values"].is_object() ? j["values"] : nlohmann::json::object();
  return true;
}

}  // namespace tfwsl
