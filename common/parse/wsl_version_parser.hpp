#pragma once
// `wsl --version` (Store WSL only): seven "label: value" lines whose labels are localized, some
// with full-width colons. An inbox wsl.exe answers with "invalid command line option" and its
// usage text instead; that travels in `errors`.

#include <array>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "common/parse/wsl_error_parser.hpp"
#include "common/parse/wsl_message_catalog.hpp"

namespace tfwsl::parse {

struct WslVersionResult {
  std::array<std::optional<std::string>, k_wsl_version_field_count> fields;  // by WslVersionField
  std::string windows_version_in_message;  // "Windows version X does not support the packaged ..."
  WslErrorFlags errors;

  const std::optional<std::string>& field(WslVersionField f) const { return fields[static_cast<std::size_t>(f)]; }
  std::size_t fields_found() const;
};

WslVersionResult parse_wsl_version(std::string_view text);

// {"wsl_version", "kernel_version", "wslg_version", ..., "windows_version"}: only what was shown.
nlohmann::json to_json(const WslVersionResult& result);

// The build number of a "10.0.19045.4412" Windows version (19045); nothing when it is not one.
std::optional<int> windows_build_of(std::string_view windows_version);

}  // namespace tfwsl::parse
