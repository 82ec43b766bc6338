#include "common/parse/wsl_status_parser.hpp"

#include <algorithm>

#include "common/parse/line_tools.hpp"
#include "common/parse/wsl_message_catalog.hpp"
#include "common/util/text_lines.hpp"

namespace tfwsl::parse {
namespace {

bool is_one_of(const std::string& label, const std::vector<std::string>& labels) {
  return std::find(labels.begin(), labels.end(), label) != labels.end();
}

// The value's first word; nothing when there is none or it was cut ("Ubuntu-2...", "5.15.1...").
std::optional<std::string> first_word(std::string_view value) {
  const auto words = words_of(value);
  if (words.empty() || has_cut_marker(words.front())) return std::nullopt;
  return std::string(words.front());
}

}  // namespace

WslStatusResult parse_wsl_status(std::string_view text) {
  const WslMessageCatalog& catalog = wsl_message_catalog();
  WslStatusResult result;
  result.errors = detect_wsl_errors(text);
  for (std::string_view raw : lines_of(text)) {
    const auto pair = split_label_value(strip_line_wrapping(raw));
    if (!pair || pair->value.empty()) continue;
    if (is_one_of(pair->label, catalog.status_distribution_labels)) {
      if (auto name = first_word(pair->value)) result.default_distribution = std::move(name);
    } else if (is_one_of(pair->label, catalog.status_version_labels)) {
      const auto word = first_word(pair->value);
      if (word == "1" || word == "2") result.default_version = word == "1" ? 1 : 2;
    } else if (is_one_of(pair->label, catalog.version_labels[static_cast<std::size_t>(WslVersionField::kernel)])) {
      if (auto kernel = first_word(strip_markdown_link(pair->value))) result.kernel_version = std::move(kernel);
    }
  }
  return result;
}

nlohmann::json to_json(const WslStatusResult& result) {
  nlohmann::json facts = nlohmann::json::object();
  if (result.default_distribution) facts["default_distribution"] = valid_utf8(*result.default_distribution);
  if (result.default_version) facts["default_version"] = *result.default_version;
  if (result.kernel_version) facts["kernel_version"] = valid_utf8(*result.kernel_version);
  if (result.errors.any()) facts["errors"] = to_json(result.errors);
  return facts;
}

}  // namespace tfwsl::parse
