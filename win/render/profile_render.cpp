#include "win/render/profile_render.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <tuple>

#include "common/core/exit_codes.hpp"
#include "common/profile/profile_emitter.hpp"
#include "common/util/plural.hpp"
#include "common/util/visible_text.hpp"

namespace tfwsl::cli {
namespace {

nlohmann::json where_json(const SourceLocation& where) { return where.to_string(); }

// Each item shown visibly: paths, keys and values come from a profile file or the machine.
std::string join(const std::vector<std::string>& items, const char* separator) {
  std::string out;
  for (const auto& item : items) out += (out.empty() ? "" : separator) + visible_text(item);
  return out;
}

std::string v(std::string_view text) { return visible_text(text); }

}  // namespace

std::vector<ProfileIssue> in_line_order(const std::vector<ProfileIssue>& issues) {
  // Files in the order they first appear (the file, then what it extends), lines and columns in order.
  std::vector<std::string> files;
  for (const auto& i : issues)
    if (std::find(files.begin(), files.end(), i.where.file) == files.end()) files.push_back(i.where.file);
  auto rank = [&files](const ProfileIssue& i) {
    return std::make_tuple(std::find(files.begin(), files.end(), i.where.file) - files.begin(), i.where.line,
                           i.where.column);
  };
  std::vector<ProfileIssue> sorted = issues;
  std::stable_sort(sorted.begin(), sorted.end(), [&rank](const auto& a, const auto& b) { return rank(a) < rank(b); });
  return sorted;
}

int issues_exit_code(const std::vector<ProfileIssue>& issues) {
  if (has_errors(issues)) return exit_code::k_failure;
  return issues.empty() ? exit_code::k_ok : exit_code::k_warning;
}

nlohmann::json issues_json(const std::vector<ProfileIssue>& issues) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& i : in_line_order(issues)) {
    out.push_back({{"severity", i.severity == IssueSeverity::error ? "error" : "warning"},
                   {"file", i.where.file},
                   {"line", i.where.line},
                   {"column", i.where.column},
                   {"message", i.message},
                   {"fix", i.fix}});
  }
  return out;
}

std::string issues_text(const std::vector<ProfileIssue>& issues) {
  std::string out;
  for (const auto& i : in_line_order(issues)) out += v(i.to_string()) + "\n";
  return out;
}

nlohmann::json profile_identity_json(const Profile& profile, const ProfileChoice& choice) {
  return {{"name", profile.name.value_or("")},
          {"from", choice.from},
          {"origin", to_string(choice.origin)},
          {"sources", profile.sources}};
}

nlohmann::json show_json(const Profile& profile, const ProfileChoice& choice, const std::vector<ProfileIssue>& issues) {
  nlohmann::json settings = nlohmann::json::array();
  for (const auto& s : flatten_profile(profile))
    settings.push_back({{"key", s.key}, {"value", s.value}, {"where", where_json(s.where)}});
  return {{"profile", profile_identity_json(profile, choice)}, {"settings", settings}, {"issues", issues_json(issues)}};
}

std::string show_text(const Profile& profile, const ProfileChoice& choice) {
  std::string out = fmt::format("profile {}\nfrom: {}\nfiles: {}\n\n", v(profile.name.value_or("(no name)")),
                                v(choice.from), join(profile.sources, " <- "));
  auto flat = flatten_profile(profile);
  std::size_t key_width = 0, value_width = 0;
  for (auto& s : flat) {
    s.key = v(s.key), s.value = v(s.value);
    key_width = std::max(key_width, s.key.size()), value_width = std::max(value_width, s.value.size());
  }
  value_width = std::min<std::size_t>(value_width, 40);
  for (const auto& s : flat)
    out += fmt::format("  {:<{}}  {:<{}}  {}\n", s.key, key_width, s.value, value_width, v(s.where.to_string()));
  return out;
}

nlohmann::json diff_json(const Profile& profile, const ProfileChoice& choice, const DiffMachine& machine,
                         const ProfileDiff& diff, const std::string& incomplete_because) {
  nlohmann::json drifts = nlohmann::json::array(), not_compared = nlohmann::json::array();
  for (const auto& d : diff.drifts)
    drifts.push_back(
        {{"key", d.key}, {"wanted", d.wanted}, {"found", d.found}, {"where", where_json(d.where)}, {"fix", d.fix}});
  for (const auto& n : diff.not_compared) not_compared.push_back({{"key", n.key}, {"why", n.why}});
  return {{"profile", profile_identity_json(profile, choice)},
          {"machine", {{"distro", machine.distro}, {"agent", machine.agent}}},
          {"drifts", drifts},
          {"same", diff.same},
          {"not_compared", not_compared},
          {"complete", incomplete_because.empty()},
          {"incomplete_because",
           incomplete_because.empty() ? nlohmann::json(nullptr) : nlohmann::json(incomplete_because)}};
}

std::string diff_text(const Profile& profile, const ProfileChoice& choice, const DiffMachine& machine,
                      const ProfileDiff& diff) {
  std::string out =
      fmt::format("profile {}\nfrom: {}\nmachine: {}{}\n\n", v(profile.name.value_or("(no name)")), v(choice.from),
                  machine.distro.empty() ? "" : v(machine.distro) + ", ", v(machine.agent));
  if (diff.drifts.empty()) {
    out +=
        fmt::format("no drift: the {} {} compared {} the same on this machine\n", diff.same.size(),
                    plural_noun(diff.same.size(), "setting", "settings"), plural_noun(diff.same.size(), "is", "are"));
  } else {
    out += plural(diff.drifts.size(), "drift", "drifts") + ":\n";
    for (const auto& d : diff.drifts) {
      out += fmt::format("  {}: the profile says {}, this machine has {}  ({})\n    fix: {}\n", v(d.key), v(d.wanted),
                         v(d.found), v(d.where.to_string()), v(d.fix));
    }
  }
  if (!diff.same.empty()) out += "\nsame: " + join(diff.same, ", ") + "\n";
  if (!diff.not_compared.empty()) {
    out += "not compared:\n";
    for (const auto& n : diff.not_compared) out += fmt::format("  {}: {}\n", v(n.key), v(n.why));
  }
  return out;
}

}  // namespace tfwsl::cli
