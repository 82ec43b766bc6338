#include "common/parse/wsl_message_catalog.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <string_view>

#include "common/parse/line_tools.hpp"
#include "common/util/text_lines.hpp"

namespace tfwsl::parse {

extern const unsigned char k_wsl_messages_json[];
extern const std::size_t k_wsl_messages_json_size;

namespace {

void add_distinct(std::vector<std::string>& list, std::string value) {
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

std::string upper(std::string_view text) {
  std::string out(text);
  for (char& c : out)
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  return out;
}

void add_error_codes(const nlohmann::json& document, WslMessageCatalog& catalog) {
  auto list = document.find("error_codes");
  if (list == document.end() || !list->is_array()) return;
  for (const auto& entry : *list) {
    if (!entry.is_object()) continue;
    WslErrorCode code{upper(message(entry, "code")), message(entry, "flag"), message(entry, "finding"),
                      normalize_sentence(message(entry, "message"))};
    if (!code.code.empty() && !code.flag.empty()) catalog.error_codes.push_back(std::move(code));
  }
}

void add_warning_sentences(const nlohmann::json& messages, WslMessageCatalog& catalog);

// One set of messages (a locale's current wording, or an earlier one) into the catalogue's pieces.
void add_messages(const nlohmann::json& messages, WslMessageCatalog& catalog) {
  const std::string versions = message(messages, "MessagePackageVersions");
  std::size_t field = 0;
  for (std::string_view line : lines_of(versions)) {
    if (field >= k_wsl_version_field_count) break;
    add_distinct(catalog.version_labels[field++], label_of(line));
  }
  add_distinct(catalog.status_distribution_labels, label_of(message(messages, "MessageStatusDefaultDistro")));
  add_distinct(catalog.status_version_labels, label_of(message(messages, "MessageStatusDefaultVersion")));
  add_distinct(catalog.list_headers, normalize_sentence(message(messages, "MessageRegisteredDistrosHeader")));
  const std::string marker = message(messages, "MessagePrintDistroDefault");
  if (const auto hole = marker.find("{}"); hole != std::string::npos)
    add_distinct(catalog.default_markers, normalize_for_match(marker.substr(hole + 2)));
  add_distinct(catalog.no_distribution_sentences,
               normalize_sentence(first_line(message(messages, "MessageNoDefaultDistro"))));
  add_distinct(catalog.no_running_sentences, normalize_sentence(message(messages, "MessageNoRunningDistro")));
  add_distinct(catalog.distro_not_found_sentences, normalize_sentence(message(messages, "MessageDistroNotFound")));
  add_distinct(catalog.virtualization_sentences,
               normalize_sentence(first_line(message(messages, "MessageEnableVirtualization"))));
  add_distinct(catalog.optional_component_sentences,
               normalize_sentence(first_line(message(messages, "MessageWslOptionalComponentRequired"))));
  add_distinct(catalog.optional_component_sentences,
               normalize_sentence(message(messages, "MessageMissingOptionalComponents")));
  // "Failed to start virtual networking - please install the optional component Virtual Machine
  // Platform ...": the part before the dash is the sentence.
  const std::string vmp = message(messages, "MessageVirtualMachinePlatformNotInstalled");
  add_distinct(catalog.optional_component_sentences, normalize_sentence(vmp.substr(0, vmp.find(" - "))));
  add_distinct(catalog.invalid_argument_labels, label_of(first_line(message(messages, "MessageInvalidCommandLine"))));
  // Named strings: lines_of returns views into its argument.
  const std::string error_code = message(messages, "MessageErrorCode");
  if (const auto code_lines = lines_of(error_code); !code_lines.empty())
    add_distinct(catalog.error_code_labels, label_of(code_lines.back()));
  add_distinct(catalog.online_list_sentences,
               normalize_sentence(first_line(message(messages, "MessageDistributionListOnline"))));
  add_distinct(catalog.wsl2_needed_sentences, normalize_sentence(message(messages, "MessageWsl2Needed")));
  const std::string usage = message(messages, "MessageWslUsage");
  for (std::string_view line : lines_of(usage)) {
    const auto at = line.find("wsl.exe [");
    if (at != std::string_view::npos) add_distinct(catalog.usage_labels, normalize_sentence(line.substr(0, at)));
  }
  add_warning_sentences(messages, catalog);
}

// The warnings wsl.exe prints at start-up about settings it did not apply.
void add_warning_sentences(const nlohmann::json& messages, WslMessageCatalog& catalog) {
  add_distinct(catalog.sparse_vhd_sentences,
               normalize_sentence(first_line(message(messages, "MessageSparseVhdDisabled"))));
  const std::string mirrored = first_line(message(messages, "MessageMirroredNetworkingNotSupportedReason"));
  add_distinct(catalog.mirrored_fallback_sentences, label_of(mirrored));
  const std::string policy = message(messages, "MessageSettingOverriddenByPolicy");
  if (const auto hole = policy.find("{}"); hole != std::string::npos) {
    std::pair<std::string, std::string> parts{normalize_sentence(policy.substr(0, hole)),
                                              normalize_sentence(policy.substr(hole + 2))};
    if (!parts.second.empty() && std::find(catalog.policy_override_parts.begin(), catalog.policy_override_parts.end(),
                                           parts) == catalog.policy_override_parts.end())
      catalog.policy_override_parts.push_back(std::move(parts));
  }
}

// "earlier_wordings": [{"locale", "commit", "messages": {key: text}}]: wordings wsl.exe printed before.
void add_earlier_wordings(const nlohmann::json& document, WslMessageCatalog& catalog) {
  auto list = document.find("earlier_wordings");
  if (list == document.end() || !list->is_array()) return;
  for (const auto& entry : *list) {
    if (entry.is_object() && entry.contains("messages") && entry["messages"].is_object())
      add_messages(entry["messages"], catalog);
  }
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
    add_messages(messages, catalog);
  }
  add_earlier_wordings(document, catalog);
  add_error_codes(document, catalog);
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
