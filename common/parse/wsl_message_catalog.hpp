#pragma once
// wsl.exe's own messages in every language it ships (profiles/wsl-messages.json, taken from
// microsoft/WSL's Resources.resw: the current wording and, under "earlier_wordings", every other one
// the files had in the repository's history), turned into the pieces the parsers look for: the labels of
// `--version` and `--status`, the `-l` header and its default marker, the first sentence of each
// error worth recognising, and the error codes wsl.exe prints with the error flag each one means.
// All strings are in normalize_for_match / normalize_sentence form, so a French no-break space or a
// Chinese full-width colon in a paste still matches.

#include <array>
#include <string>
#include <utility>
#include <vector>

namespace tfwsl::parse {

// Fields of `wsl --version`, in the order wsl.exe prints them (MessagePackageVersions).
enum class WslVersionField { wsl, kernel, wslg, msrdc, direct3d, dxcore, windows };
inline constexpr std::size_t k_wsl_version_field_count = 7;

// One entry of the catalogue's "error_codes": a code ("0x80370102", "HCS_E_SERVICE_NOT_AVAILABLE")
// found anywhere in an "Error code:" value, the error flag it sets and the explain finding of that
// flag; `message` is the English system text Windows prints with it (normalize_sentence form).
struct WslErrorCode {
  std::string code;     // upper-case, matched case-insensitively inside a collected code
  std::string flag;     // a WslErrorFlags member name: "virtualization_disabled", ...
  std::string finding;  // "wsl.virtualization-disabled" (documentation and tests; may be empty)
  std::string message;
};

struct WslMessageCatalog {
  std::vector<std::string> locales;
  // Per field of `wsl --version`: its label in every language ("wsl version", "内核版本").
  std::array<std::vector<std::string>, k_wsl_version_field_count> version_labels;
  std::vector<std::string> status_distribution_labels;    // "default distribution"
  std::vector<std::string> status_version_labels;         // "default version"
  std::vector<std::string> list_headers;                  // "windows subsystem for linux distributions"
  std::vector<std::string> default_markers;               // "(default)" as printed after the name
  std::vector<std::string> no_distribution_sentences;     // first sentence of MessageNoDefaultDistro
  std::vector<std::string> no_running_sentences;          // MessageNoRunningDistro
  std::vector<std::string> distro_not_found_sentences;    // MessageDistroNotFound
  std::vector<std::string> virtualization_sentences;      // first line of MessageEnableVirtualization
  std::vector<std::string> optional_component_sentences;  // MessageWslOptionalComponentRequired & co
  std::vector<std::string> invalid_argument_labels;       // "invalid command line argument"
  std::vector<std::string> usage_labels;                  // "usage" (before ": wsl.exe [")
  std::vector<std::string> error_code_labels;             // "error code"
  std::vector<std::string> online_list_sentences;         // first line of MessageDistributionListOnline
  std::vector<std::string> wsl2_needed_sentences;         // MessageWsl2Needed
  std::vector<std::string> sparse_vhd_sentences;          // first line of MessageSparseVhdDisabled
  std::vector<std::string> mirrored_fallback_sentences;   // MessageMirroredNetworkingNotSupportedReason, before ": {}"
  // MessageSettingOverriddenByPolicy around its "{}": both parts must be on the line.
  std::vector<std::pair<std::string, std::string>> policy_override_parts;
  std::vector<WslErrorCode> error_codes;  // "error_codes", in the file's order
};

// Built once from the embedded JSON; the same object on every call.
const WslMessageCatalog& wsl_message_catalog();

// True when `normalized` (a normalize_for_match line) contains one of `sentences`.
bool contains_any(const std::string& normalized, const std::vector<std::string>& sentences);

}  // namespace tfwsl::parse
