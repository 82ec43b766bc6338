#include "common/parse/wsl_error_parser.hpp"

#include <algorithm>
#include <array>
#include <optional>

#include "common/parse/line_tools.hpp"
#include "common/parse/wsl_message_catalog.hpp"
#include "common/util/ascii.hpp"
#include "common/util/text_lines.hpp"

namespace tfwsl::parse {
namespace {

void add_unique(std::vector<std::string>& list, std::string value) {
  if (std::find(list.begin(), list.end(), value) == list.end()) list.push_back(std::move(value));
}

// "usage: wsl.exe [argument] ..." in any language: a short label, a colon, then wsl.exe and a '['.
bool is_usage_line(const std::string& normalized) {
  auto at = normalized.find(": wsl.exe [");
  if (at == std::string::npos) at = normalized.find(":wsl.exe [");
  if (at == std::string::npos) at = normalized.find(": wsl.exe[");
  if (at == std::string::npos || at == 0 || at > 48) return false;
  return normalized.compare(0, at, "wsl") != 0 && normalized.find('[') > at;
}

// "invalid command line option: --status" in any language: a label without options in it, a colon,
// then exactly one option. Returns the option, empty when the line is something else.
std::string rejected_option(const std::string& normalized) {
  const auto colon = normalized.find(':');
  if (colon == std::string::npos || colon < 3 || colon > 64) return {};
  const std::string_view label(normalized.data(), colon);
  if (label.front() == '-' || contains(label, " -") || contains(label, "wsl") || contains(label, "\\") ||
      contains(label, "/") || contains(label, "<") || contains(label, ">") || contains(label, "$"))
    return {};
  std::string_view value = trim_with_nbsp(std::string_view(normalized).substr(colon + 1));
  if (value.size() < 2 || value.front() != '-' || contains(value, " ")) return {};
  const std::string_view name = value.substr(value[1] == '-' ? 2 : 1);
  if (name.empty() || !ascii_is_alnum(name.front())) return {};
  if (!std::all_of(name.begin(), name.end(), [](char c) { return ascii_is_alnum(c) || c == '-' || c == '_'; }))
    return {};
  return std::string(value);
}

// wsl.exe's options a paste asks about; a rejected one a typo away from them was mistyped, not too new.
constexpr std::array<std::string_view, 12> k_known_options = {
    "--status",      "--version",      "--list",
    "--verbose",     "--update",       "--install",
    "--shutdown",    "--online",       "--set-default-version",
    "--set-version", "--distribution", "--unregister"};

bool is_mistyped_option(std::string_view option) {
  return std::none_of(k_known_options.begin(), k_known_options.end(),
                      [&](std::string_view o) { return o == option; }) &&
         std::any_of(k_known_options.begin(), k_known_options.end(),
                     [&](std::string_view o) { return within_one_edit(option, o); });
}

// Help lines like "--exec, -e <CommandLine>" or "-d, --distribution <DistributionName>".
bool is_option_help_line(std::string_view line) {
  line = trim_with_nbsp(line);
  if (!line.starts_with("-")) return false;
  return contains(line, "--distribution") || contains(line, "--exec") || contains(line, "--user") ||
         contains(line, "--install") || contains(line, "--export") || contains(line, "--import") ||
         contains(line, "--set-default-version") || contains(line, "--cd ");
}

// "Error: 0x1bc" (an old wsl.exe) is the Win32 code of 0x800701bc: HRESULT_FROM_WIN32 puts it under
// 0x8007 (Windows SDK winerror.h), which is the form the catalogue lists.
std::string short_win32_code(std::string_view line, std::size_t at) {
  const std::string_view before = line.substr(0, at);
  if (!trim_with_nbsp(before).ends_with(":") || !icontains(before, "error")) return {};
  std::size_t length = 2;
  while (at + length < line.size() && ascii_is_xdigit(line[at + length]) && length < 6) ++length;
  if (length < 3 || (at + length < line.size() && ascii_is_alnum(line[at + length]))) return {};
  const std::string digits(line.substr(at + 2, length - 2));
  return "0x8007" + std::string(4 - digits.size(), '0') + digits;
}

// A bare "0x80370102" is an error code where the line says so ("failed with error: 0x...",
// "Error code: ...", "HRESULT 0x..."); elsewhere (an address, a register dump) it is a number.
bool line_names_an_error(std::string_view line) {
  return icontains(line, "error") || icontains(line, "fail") || icontains(line, "code") || icontains(line, "hresult");
}

void collect_error_codes(std::string_view line, std::vector<std::string>& codes) {
  std::optional<bool> names_error;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const bool boundary = i == 0 || !ascii_is_alnum(line[i - 1]);
    if (!boundary) continue;
    const std::string_view rest = line.substr(i);
    std::size_t length = 0;
    if (rest.starts_with("Wsl/") || rest.starts_with("WSL_E_") || rest.starts_with("HCS_E_")) {
      while (length < rest.size() &&
             (ascii_is_alnum(rest[length]) || rest[length] == '_' || rest[length] == '/' || rest[length] == '-'))
        ++length;
    } else if (rest.starts_with("0x") && rest.size() >= 10 &&
               std::all_of(rest.begin() + 2, rest.begin() + 10, ascii_is_xdigit) &&
               (rest.size() == 10 || !ascii_is_alnum(rest[10]))) {
      if (!names_error) names_error = line_names_an_error(line);
      if (!*names_error) continue;
      length = 10;
    } else if (rest.starts_with("0x")) {
      if (std::string code = short_win32_code(line, i); !code.empty()) add_unique(codes, std::move(code));
      continue;
    }
    if (length > 4) {
      std::string code(rest.substr(0, length));
      while (!code.empty() && (code.back() == '/' || code.back() == '-')) code.pop_back();
      add_unique(codes, code);
      i += length - 1;
    }
  }
}

bool code_seen(const std::vector<std::string>& codes, std::string_view needle) {
  return std::any_of(codes.begin(), codes.end(), [&](const std::string& code) { return icontains(code, needle); });
}

// The flag a catalogue entry names; false when the name is not one of them.
bool set_flag(WslErrorFlags& flags, std::string_view name) {
  bool* flag = name == "virtualization_disabled"      ? &flags.virtualization_disabled
               : name == "optional_component_missing" ? &flags.optional_component_missing
               : name == "kernel_update_needed"       ? &flags.kernel_update_needed
               : name == "no_distribution"            ? &flags.no_distribution
               : name == "distro_not_found"           ? &flags.distro_not_found
                                                      : nullptr;
  if (flag) *flag = true;
  return flag != nullptr;
}

// The English system message Windows prints with a catalogued code, on a line without the code.
void apply_error_messages(const WslMessageCatalog& catalog, const std::string& normalized, WslErrorFlags& flags) {
  for (const WslErrorCode& entry : catalog.error_codes)
    if (!entry.message.empty() && contains(normalized, entry.message)) set_flag(flags, entry.flag);
}

// What the codes say, from the catalogue ("Wsl/Service/CreateVm/HCS/0x80370102" holds 0x80370102).
void apply_error_codes(const WslMessageCatalog& catalog, WslErrorFlags& flags) {
  for (const WslErrorCode& entry : catalog.error_codes)
    if (code_seen(flags.error_codes, entry.code)) set_flag(flags, entry.flag);
}

// wsl.exe's start-up warnings about settings it did not apply (any language, any wording it had).
void apply_warnings(const WslMessageCatalog& catalog, const std::string& normalized, WslErrorFlags& flags) {
  if (contains_any(normalized, catalog.sparse_vhd_sentences)) flags.sparse_vhd_disabled = true;
  if (contains_any(normalized, catalog.mirrored_fallback_sentences)) flags.mirrored_fallback = true;
  for (const auto& [before, after] : catalog.policy_override_parts) {
    const auto at = normalized.find(before);
    if (at != std::string::npos && normalized.find(after, at + before.size()) != std::string::npos)
      flags.policy_override = true;
  }
}

}  // namespace

bool WslErrorFlags::any() const {
  return usage_text || invalid_option || no_distribution || no_running_distribution || distro_not_found ||
         kernel_update_needed || virtualization_disabled || optional_component_missing || packaged_wsl_unsupported ||
         wsl2_needed || sparse_vhd_disabled || mirrored_fallback || policy_override || !error_codes.empty();
}

WslErrorFlags detect_wsl_errors(std::string_view text) {
  const WslMessageCatalog& catalog = wsl_message_catalog();
  WslErrorFlags flags;
  int option_help_lines = 0;
  bool copyright = false;
  for (std::string_view raw : lines_of(text)) {
    const std::string_view line = strip_line_wrapping(raw);
    if (line.empty()) continue;
    const std::string normalized = normalize_for_match(line);
    if (is_usage_line(normalized)) flags.usage_text = true;
    if (is_option_help_line(line)) ++option_help_lines;
    if (contains(normalized, "(c) microsoft corporation")) copyright = true;
    if (std::string option = rejected_option(normalized); !option.empty()) {
      flags.invalid_option = true;
      if (is_mistyped_option(option)) add_unique(flags.mistyped_options, option);
      add_unique(flags.rejected_options, option);
    }
    if (contains_any(normalized, catalog.no_distribution_sentences) ||
        contains(normalized, "has no installed distributions"))
      flags.no_distribution = true;
    if (contains_any(normalized, catalog.no_running_sentences)) flags.no_running_distribution = true;
    if (contains_any(normalized, catalog.distro_not_found_sentences)) flags.distro_not_found = true;
    if (contains(normalized, "aka.ms/wsl2kernel") || contains(normalized, "requires an update to its kernel component"))
      flags.kernel_update_needed = true;
    if (contains_any(normalized, catalog.virtualization_sentences) ||
        contains(normalized, "aka.ms/enablevirtualization") ||
        contains(normalized, "ensure virtualization is enabled in the bios"))
      flags.virtualization_disabled = true;
    if (contains_any(normalized, catalog.optional_component_sentences)) flags.optional_component_missing = true;
    if (contains(normalized, "does not support the packaged version of windows subsystem for linux"))
      flags.packaged_wsl_unsupported = true;
    if (contains_any(normalized, catalog.wsl2_needed_sentences)) flags.wsl2_needed = true;
    apply_warnings(catalog, normalized, flags);
    collect_error_codes(line, flags.error_codes);
    apply_error_messages(catalog, normalized, flags);
  }
  // An old inbox wsl.exe prints a short usage without the "Usage: wsl.exe [" line in some builds;
  // the copyright line together with option help, or several option help lines, is the same thing.
  if (option_help_lines >= 3 || (copyright && option_help_lines >= 1)) flags.usage_text = true;
  apply_error_codes(catalog, flags);
  return flags;
}

nlohmann::json to_json(const WslErrorFlags& flags) {
  nlohmann::json out = nlohmann::json::object();
  auto set = [&out](const char* name, bool value) {
    if (value) out[name] = true;
  };
  set("usage_text", flags.usage_text);
  set("invalid_option", flags.invalid_option);
  if (!flags.rejected_options.empty()) out["rejected_options"] = flags.rejected_options;
  if (!flags.mistyped_options.empty()) out["mistyped_options"] = flags.mistyped_options;
  set("no_distribution", flags.no_distribution);
  set("no_running_distribution", flags.no_running_distribution);
  set("distro_not_found", flags.distro_not_found);
  set("kernel_update_needed", flags.kernel_update_needed);
  set("virtualization_disabled", flags.virtualization_disabled);
  set("optional_component_missing", flags.optional_component_missing);
  set("packaged_wsl_unsupported", flags.packaged_wsl_unsupported);
  set("wsl2_needed", flags.wsl2_needed);
  set("sparse_vhd_disabled", flags.sparse_vhd_disabled);
  set("mirrored_fallback", flags.mirrored_fallback);
  set("policy_override", flags.policy_override);
  if (!flags.error_codes.empty()) out["error_codes"] = flags.error_codes;
  return out;
}

std::string find_windows_version(std::string_view text) {
  for (std::string_view line : lines_of(text)) {
    // `ver` and wsl.exe name Windows; winver and systeminfo write "Version 10.0.19041 Build 19041".
    if (!icontains(line, "windows") && !(icontains(line, "version") && icontains(line, "build"))) continue;
    for (std::size_t i = 0; i + 6 < line.size(); ++i) {
      if (i > 0 && (ascii_is_digit(line[i - 1]) || line[i - 1] == '.')) continue;
      if (!line.substr(i).starts_with("10.0.")) continue;
      std::size_t end = i + 5;
      std::size_t build_digits = 0;
      while (end < line.size() && ascii_is_digit(line[end])) ++end, ++build_digits;
      if (build_digits < 4 || build_digits > 5) continue;
      // "10.0.1904..." was cut: its build may have lost digits (and would read as a very old one).
      if (starts_with_cut_marker(line.substr(end))) continue;
      const std::size_t build_end = end;
      if (end + 1 < line.size() && line[end] == '.' && ascii_is_digit(line[end + 1])) {
        ++end;
        while (end < line.size() && ascii_is_digit(line[end])) ++end;
        if (starts_with_cut_marker(line.substr(end))) end = build_end;  // a cut revision: the build is whole
      }
      return std::string(line.substr(i, end - i));
    }
  }
  return {};
}

}  // namespace tfwsl::parse
