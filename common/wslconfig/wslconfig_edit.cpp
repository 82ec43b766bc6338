#include "common/wslconfig/wslconfig_edit.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "common/util/ascii.hpp"
#include "common/util/suggest.hpp"
#include "common/util/text_lines.hpp"
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
  if (auto guess = closest_match(key, names))
    message += fmt::format("; did you mean '{}'?", *guess);
  else
    message += "; the keys are listed on https://learn.microsoft.com/windows/wsl/wsl-config";
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

Status check_value_shape(const Assignment& assignment) {
  if (assignment.value.find_first_of("\r\n") != std::string::npos)
    return make_error(
        ErrorCode::invalid_input,
        fmt::format("the value of {} has a line break: a .wslconfig value is one line", assignment.ref.key));
  return {};
}

// line_diff's two ways, over the lines between the shared start and end (`offset` lines before).
constexpr std::size_t k_max_diff_cells = 1u << 20;
constexpr std::size_t k_resync_window = 256;

void removed(std::string& out, std::size_t offset, std::size_t i, std::string_view line) {
  out += fmt::format("-{}: {}\n", offset + i + 1, line);
}
void added(std::string& out, std::size_t offset, std::size_t j, std::string_view line) {
  out += fmt::format("+{}: {}\n", offset + j + 1, line);
}

std::string lcs_diff(const std::vector<std::string_view>& a, const std::vector<std::string_view>& b,
                     std::size_t offset) {
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
      removed(out, offset, i, a[i]);
      ++i;
    } else {
      added(out, offset, j, b[j]);
      ++j;
    }
  }
  return out;
}

// How many lines of `from` (starting at `at`) come before `line` again, within the window.
std::size_t distance_to(const std::vector<std::string_view>& from, std::size_t at, std::string_view line) {
  for (std::size_t k = 1; k <= k_resync_window && at + k < from.size(); ++k)
    if (from[at + k] == line) return k;
  return std::string_view::npos;
}

std::string resync_diff(const std::vector<std::string_view>& a, const std::vector<std::string_view>& b,
                        std::size_t offset) {
  std::string out;
  std::size_t i = 0, j = 0;
  while (i < a.size() || j < b.size()) {
    if (i < a.size() && j < b.size() && a[i] == b[j]) {
      ++i, ++j;
      continue;
    }
    if (i == a.size()) {
      added(out, offset, j, b[j]);
      ++j;
      continue;
    }
    if (j == b.size()) {
      removed(out, offset, i, a[i]);
      ++i;
      continue;
    }
    const std::size_t gone = distance_to(a, i, b[j]);
    const std::size_t come = distance_to(b, j, a[i]);
    if (gone != std::string_view::npos && (come == std::string_view::npos || gone <= come)) {
      for (std::size_t k = 0; k < gone; ++k, ++i) removed(out, offset, i, a[i]);
    } else if (come != std::string_view::npos) {
      for (std::size_t k = 0; k < come; ++k, ++j) added(out, offset, j, b[j]);
    } else {
      removed(out, offset, i, a[i]);  // a line replaced by another
      added(out, offset, j, b[j]);
      ++i, ++j;
    }
  }
  return out;
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
    // The same value in another spelling ("08" for 8) is no change: the file keeps its text.
    const auto key = find_known_key(a.ref.section, a.ref.key);
    if (change.before && key && same_value(key->kind, *change.before, a.value)) change.after = change.before;
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
  const auto all_a = lines_of(old_text);
  const auto all_b = lines_of(new_text);
  // The lines both share at the start and at the end are no part of the diff.
  std::size_t head = 0;
  while (head < all_a.size() && head < all_b.size() && all_a[head] == all_b[head]) ++head;
  std::size_t tail = 0;
  while (tail < all_a.size() - head && tail < all_b.size() - head &&
         all_a[all_a.size() - 1 - tail] == all_b[all_b.size() - 1 - tail])
    ++tail;
  const std::vector<std::string_view> a(all_a.begin() + static_cast<std::ptrdiff_t>(head),
                                        all_a.end() - static_cast<std::ptrdiff_t>(tail));
  const std::vector<std::string_view> b(all_b.begin() + static_cast<std::ptrdiff_t>(head),
                                        all_b.end() - static_cast<std::ptrdiff_t>(tail));
  // The longest common subsequence is quadratic: for what an edit leaves between (a line or two)
  // it is exact; between edits far apart in a long file the resync scan is linear.
  return a.size() * b.size() <= k_max_diff_cells ? lcs_diff(a, b, head) : resync_diff(a, b, head);
}

}  // namespace tfwsl::wslconfig
