#pragma once
// `wsl --status`: "Default Distribution: X" / "Default Version: N" in any of wsl.exe's languages,
// and the inbox builds' extra "Kernel version:" line. Error states (an old wsl.exe rejecting
// --status, the kernel update message) travel in `errors`.

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "common/parse/wsl_error_parser.hpp"

namespace tfwsl::parse {

struct WslStatusResult {
  std::optional<std::string> default_distribution;
  std::optional<int> default_version;
  std::optional<std::string> kernel_version;  // inbox WSL only
  WslErrorFlags errors;
};

WslStatusResult parse_wsl_status(std::string_view text);

// {"default_distribution": "Ubuntu", "default_version": 2, ...}: only what was shown.
nlohmann::json to_json(const WslStatusResult& result);

}  // namespace tfwsl::parse
