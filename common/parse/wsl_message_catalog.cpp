// owner: knowB
#include "common/parse/wsl_message_catalog.hpp"

#include <algorithm>
#include <string_view>

#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include "common/parse/line_tools.hpp"

namespace tfwsl::parse {

extern const unsigned char k_wsl_messages_json[];
extern const std::size_t k_wsl_messages_json_size;

namespace {

void add_unique(std::vector<std::string>& list, std::string value) {
  if (value.empty()) return;
  if (std::find(list.begin(), list.end(), value) == list.end()) list.push_back(std::move(value));
}

std::string first_line(std::string_view text) {
  const auto end = text.find('\n');
  return std::string(text.substr(0, end));
}

// "WSL version: {}" -> "wsl version"; "{} (Default)" handled separately.
std::string label_of(std::string_view pattern) {
  const auto hole = pattern.find("{}");
  return normalize_sentence(pattern.substr(0, hole));
}

std::string message(const nlohmann::json& messages, const char* key) {
  auto it = messages.find(key);
  return (it != messages.end() && it->is_string()) ? it->get<std::string>() : std::string();
}

WslMessageCatalog build_catalog() {
  WslMessageCatalog catalog;
  const std::string_view bytes(reinterpret_cast<const char*>(k_wsl_messages_json), k_wsl_messages_json_size);
  const auto document = nlohmann::json::parse(bytes, nullptr, /*allow_exceptions=*/false);
  if (!document.is_object() || !document.contains("messages")) {
    spdlog::error("embedded wsl-messages.json is not readable: localized wsl.exe messages will not be recognised");
    return catalog;
  }
  for (const auto& [locale, messages] : document["messages"].items()) {
    catalog.locales.push_back(locale);
    const std::string versions = message(messages, "MessagePackageVersions");
    std::size_t field = 0;
    for (std::string_view line : lines_of(versions)) {
      if (field >= k_wsl_version_field_count) break;
      add_unique(catalog.version_labels[field++], label_of(line));
    }
    add_unique(catalog.status_distribution_labels, label_of(message(messages, "MessageStatusDefaultDistro")));
    add_unique(catalog.status_version_labels, label_of(message(messages, "MessageStatusDefaultVersion")));
    add_unique(catalog.list_headers, normalize_sentence(message(messages, "MessageRegisteredDistrosHeader")));
    const std::string marker = message(messages, "MessagePrintDistroDefault");
    if (const auto hole = marker.find("{}"); hole != std::string::npos)
      add_unique(catalog.default_markers, normalize_for_match(marker.substr(hole + 2)));
    add_unique(catalog.no_distribution_sentences, normalize_sentence(first_line(message(messages, "MessageNoDefaultDistro"))));
    add_unique(catalog.no_running_sentences, normalize_sentence(message(messages, "MessageNoRunningDistro")));
    add_unique(catalog.distro_not_found_sentences, normalize_sentence(message(messages, "MessageDistroNotFound")));
    add_unique(catalog.virtualization_sentences, normalize_sentence(first_line(message(messages, "MessageEnableVirtualization"))));
    add_unique(catalog.optional_component_sentences,
               normalize_sentence(first_line(message(messages, "MessageWslOptionalComponentRequired"))));
    add_unique(catalog.optional_component_sentences, normalize_sentence(message(messages, "MessageMissingOptionalComponents")));
    add_unique(catalog.invalid_argument_labels, label_of(first_line(message(messages, "MessageInvalidCommandLine"))));
    // Named strings: lines_of returns views into its argument.
    const std::string error_code = message(messages, "MessageErrorCode");
    if (const auto code_lines = lines_of(error_code); !code_lines.empty())
      add_unique(catalog.error_code_labels, label_of(code_lines.back()));
    add_unique(catalog.online_list_sentences, normalize_sentence(first_line(message(messages, "MessageDistributionListOnline"))));
    add_unique(catalog.wsl2_needed_sentences, normalize_sentence(message(messages, "MessageWsl2Needed")));
    const std::string usage = message(messages, "MessageWslUsage");
    for (std::string_view line : lines_of(usage)) {
      const auto at = line.find("wsl.exe [");
      if (at != std::string_view::npos) add_unique(catalog.usage_labels, normalize_sentence(line.substr(0, at)));
    }
  }
  return catalog;
}

}  // namespace

const WslMessageCatalog& wsl_message_catalog() {
  static const WslMessageCatalog catalog = build_catalog();
  return catalog;
}

bool contains_any(const std::string& normalized, const std::vector<std::string>& sentences) {
  return std::any_of(sentences.begin(), sentences.end(),
                     [&](const std::string& s) { return !s.empty() && normalized.find(s) != std::string::npos; });
}

}  // namespace tfwsl::parse
