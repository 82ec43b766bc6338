#include "common/wslconfig/wslconfig_edit.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "common/util/ascii.hpp"
#include "common/util/suggest.hpp"
#include "common/wslconfig/wslconfig_keys.hpp"

namespace tfwsl::wslconfig {
namespace {

std::vector<std::string> all_key_names() {
  std::vector<std::string> names;
  for (const KnownKey& k : known_keys())
    if (std::find(names.begin(), names.end(), k.name) == names.end()) names.emplace_back(k.name);
  return names;
}

Result<KeyRef> unknown_key(std::string_view key, std::string_view section) {
  const std::vector<std::string> names = section.empty() ? all_key_names() : key_names(section);
  std::string message = section.empty() ? fmt::format("'{}' is not a .wslconfig key", key)
                                        : fmt::format("'{}' is not a key of [{}]", key, section);
  if (auto guess = closest_match(key, names)) message += fmt::format("; did you mean '{}'?", *guess);
  else message += "; the keys are listed on https://learn.microsoft.com/windows/wsl/wsl-config";
  return make_error(ErrorCode::invalid_input, message);
}

// Where WSL reads a key that both sections know: where the file has it, else [wsl2].
std::string section_for(const std::string& key, const Document& document) {
  const bool in_wsl2 = find_known_key("wsl2", key).has_value();
  const bool in_experimental = find_known_key("experimental", key).has_value();
  if (in_wsl2 && in_experimental)
    return document.line_of("wsl2", key) == 0 && document.line_of("experimental", key) != 0 ? "experimental" : "wsl2";
  return in_wsl2 ? "wsl2" : "experimental";
}

// The lines of a text, without their ends (a diff compares contents).
std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.push_back(line);
    start = end + 1;
  }
  return lines;
}

Status check_value_shape(const Assignment& assignment) {
  if (assignment.value.find_first_of("\r\n") != std::string::npos)
    return make_error(ErrorCode::invalid_input,
                      fmt::format("the value of {} has a line break: a .wslconfig value is one line", assignment.ref.key));
  return {};
}

}  // namespace

Result<KeyRef> resolve_key(std::string_view text, const Document& document) {
  text = trim(text);
  std::string_view section;
  std::string_view key = text;
  if (const auto dot = text.find('.'); dot != std::string_view::npos) {
    section = text.substr(0, dot);
    key = text.substr(dot + 1);
    if (!iequals(section, "wsl2") && !iequals(section, "experimental"))
      return make_error(ErrorCode::invalid_input,
                        fmt::format("'{}' is not a .wslconfig section: write wsl2.{} or experimental.{} (or just {})",
                                    section, key, key, key));
  }
  if (key.empty()) return make_error(ErrorCode::invalid_input, "name a key, e.g. memory");
  const std::string wanted = section.empty() ? section_for(std::string(key), document) : ascii_lower(section);
  const auto known = find_known_key(wanted, key);
  if (!known) return unknown_key(key, section.empty() ? std::string_view{} : std::string_view(wanted));
  return KeyRef{std::string(known->section), std::string(known->name)};
}

Result<Assignment> parse_assignment(std::string_view text, const Document& document) {
  const auto eq = text.find('=');
  if (eq == std::string_view::npos)
    return make_error(ErrorCode::invalid_input, fmt::format("'{}' is not KEY=VALUE: write e.g. memory=16GB", text));
  TFWSL_TRY(ref, resolve_key(text.substr(0, eq), document));
  const std::string value(trim(text.substr(eq + 1)));
  if (value.empty())
    return make_error(ErrorCode::invalid_input,
                      fmt::format("{}= has no value: give one (e.g. {}=...), or use `tfwsl wslconfig unset {}`",
                                  ref.key, ref.key, ref.key));
  return Assignment{ref, value};
}

bool refuses_value(const Finding& finding) {
  return finding.id == "wslconfig.bad-size" || finding.id == "wslconfig.bad-value" ||
         finding.id == "wslconfig.memory-over-ram";
}

Result<EditPlan> plan_edit(const Document& document, std::string_view old_bytes, const std::vector<Assignment>& sets,
                           const std::vector<KeyRef>& unsets, const EditOptions& options) {
  EditPlan plan{document, {}, {}, {}, false};
  for (const Assignment& a : sets) {
    TFWSL_TRY_STATUS(check_value_shape(a));
    Change change{a.ref, plan.after.get(a.ref.section, a.ref.key), a.value, 0};
    if (change.before != change.after) plan.after.set(a.ref.section, a.ref.key, a.value);
    plan.changes.push_back(std::move(change));
  }
  for (const KeyRef& ref : unsets) {
    Change change{ref, plan.after.get(ref.section, ref.key), std::nullopt, 0};
    plan.after.unset(ref.section, ref.key);
    plan.changes.push_back(std::move(change));
  }
  for (Change& change : plan.changes) change.line = plan.after.line_of(change.ref.section, change.ref.key);
  // The lint is of what will be written (UTF-8 without BOM), not of the file as it was read: a
  // UTF-16 or BOM file's encoding finding is what the rewrite fixes.
  plan.new_bytes = plan.after.serialize();
  plan.findings = lint(Document::parse(plan.new_bytes), LintOptions{options.physical_memory_bytes});
  for (const Change& change : plan.changes) {
    if (!change.after || change.line == 0) continue;
    for (const Finding& f : plan.findings) {
      if (f.line != change.line || !refuses_value(f)) continue;
      return make_error(ErrorCode::invalid_input,
                        fmt::format("refusing {}={}: {}; fix: {}", change.ref.key, *change.after, f.summary, f.fix));
    }
  }
  plan.changes_bytes = plan.new_bytes != old_bytes;
  return plan;
}

std::string line_diff(std::string_view old_text, std::string_view new_text) {
  const auto a = split_lines(old_text);
  const auto b = split_lines(new_text);
  // Longest common subsequence over lines: .wslconfig files are a few dozen lines.
  std::vector<std::vector<std::size_t>> lcs(a.size() + 1, std::vector<std::size_t>(b.size() + 1, 0));
  for (std::size_t i = a.size(); i-- > 0;)
    for (std::size_t j = b.size(); j-- > 0;)
      lcs[i][j] = a[i] == b[j] ? lcs[i + 1][j + 1] + 1 : std::max(lcs[i + 1][j], lcs[i][j + 1]);
  std::string out;
  std::size_t i = 0, j = 0;
  while (i < a.size() || j < b.size()) {
    if (i < a.size() && j < b.size() && a[i] == b[j]) {
      ++i, ++j;
    } else if (i < a.size() && (j == b.size() || lcs[i + 1][j] >= lcs[i][j + 1])) {
      out += fmt::format("-{}: {}\n", i + 1, a[i]);
      ++i;
    } else {
      out += fmt::format("+{}: {}\n", j + 1, b[j]);
      ++j;
    }
  }
  return out;
}

}  // namespace tfwsl::wslconfig
