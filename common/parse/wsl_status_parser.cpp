// owner: knowB
#include "common/parse/wsl_status_parser.hpp"

#include <algorithm>

#include "common/parse/line_tools.hpp"
#include "common/parse/wsl_message_catalog.hpp"

namespace tfwsl::parse {
namespace {

bool is_one_of(const std::string& label, const std::vector<std::string>& labels) {
  return std::find(labels.begin(), labels.end(), label) != labels.end();
}

std::string first_word(std::string_view value) {
  const auto words = words_of(value);
  return words.empty() ? std::string() : std::string(words.front());
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
      result.default_distribution = first_word(pair->value);
    } else if (is_one_of(pair->label, catalog.status_version_labels)) {
      const std::string word = first_word(pair->value);
      if (word == "1" || word == "2") result.default_version = word == "1" ? 1 : 2;
    } else if (is_one_of(pair->label, catalog.version_labels[static_cast<std::size_t>(WslVersionField::kernel)])) {
      result.kernel_version = first_word(strip_markdown_link(pair->value));
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
