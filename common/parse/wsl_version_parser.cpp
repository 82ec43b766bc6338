#include "common/parse/wsl_version_parser.hpp"

#include <algorithm>

#include "common/parse/line_tools.hpp"
#include "common/util/ascii.hpp"
#include "common/util/text_lines.hpp"

namespace tfwsl::parse {
namespace {

constexpr std::array<const char*, k_wsl_version_field_count> k_fact_names{
    "wsl_version",      "kernel_version", "wslg_version",   "msrdc_version",
    "direct3d_version", "dxcore_version", "windows_version"};

bool looks_like_version(std::string_view value) {
  return !value.empty() && value.front() >= '0' && value.front() <= '9';
}

}  // namespace

std::size_t WslVersionResult::fields_found() const {
  return static_cast<std::size_t>(
      std::count_if(fields.begin(), fields.end(), [](const auto& f) { return f.has_value(); }));
}

WslVersionResult parse_wsl_version(std::string_view text) {
  const WslMessageCatalog& catalog = wsl_message_catalog();
  WslVersionResult result;
  result.errors = detect_wsl_errors(text);
  if (result.errors.packaged_wsl_unsupported) result.windows_version_in_message = find_windows_version(text);
  // Consecutive "label: version" lines; a block of exactly seven is `wsl --version` even when a
  // label is spelt in a translation this build does not know (the order is fixed by wsl.exe). A
  // value that was cut ("10.0.2...") keeps its line's place in the block, empty: it is no fact.
  std::vector<std::string> block;
  auto close_block = [&] {
    if (block.size() == k_wsl_version_field_count && result.fields_found() >= 1) {
      for (std::size_t field = 0; field < k_wsl_version_field_count; ++field)
        if (!result.fields[field] && !block[field].empty()) result.fields[field] = block[field];
    }
    block.clear();
  };
  for (std::string_view raw : lines_of(text)) {
    const auto pair = split_label_value(strip_line_wrapping(raw));
    if (!pair) {
      if (!trim_with_nbsp(raw).empty()) close_block();
      continue;
    }
    const std::string value = strip_markdown_link(pair->value);
    const auto words = words_of(value);
    if (words.empty() || !looks_like_version(words.front())) {
      close_block();
      continue;
    }
    if (has_cut_marker(words.front())) {
      block.emplace_back();
      continue;
    }
    block.emplace_back(words.front());
    for (std::size_t field = 0; field < k_wsl_version_field_count; ++field) {
      const auto& labels = catalog.version_labels[field];
      if (std::find(labels.begin(), labels.end(), pair->label) == labels.end()) continue;
      result.fields[field] = std::string(words.front());
      break;
    }
  }
  close_block();
  return result;
}

nlohmann::json to_json(const WslVersionResult& result) {
  nlohmann::json facts = nlohmann::json::object();
  for (std::size_t field = 0; field < k_wsl_version_field_count; ++field)
    if (result.fields[field]) facts[k_fact_names[field]] = valid_utf8(*result.fields[field]);
  if (!result.windows_version_in_message.empty())
    facts["unsupported_windows_version"] = result.windows_version_in_message;
  if (result.errors.any()) facts["errors"] = to_json(result.errors);
  return facts;
}

std::optional<int> windows_build_of(std::string_view windows_version) {
  const auto words = words_of(windows_version);
  if (words.empty() || has_cut_marker(words.front())) return std::nullopt;  // a cut build is no build
  std::string_view v = words.front();
  // "10.0.19045.4412" -> third component.
  std::size_t dots = 0;
  std::size_t start = std::string_view::npos;
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (v[i] == '.') {
      ++dots;
      if (dots == 2) start = i + 1;
    }
  }
  if (start == std::string_view::npos) return std::nullopt;
  int build = 0;
  std::size_t digits = 0;
  for (std::size_t i = start; i < v.size() && v[i] >= '0' && v[i] <= '9' && digits < 7; ++i, ++digits)
    build = build * 10 + (v[i] - '0');
  if (digits == 0) return std::nullopt;
  return build;
}

}  // namespace tfwsl::parse
