#pragma once
// The keys .wslconfig knows, per section, with the kind of value each takes (the
// [wsl2] and [experimental] tables of learn.microsoft.com's wsl-config page, plus gpuSupport and
// pageReporting that wsl.exe still reads). Data, so lint and the editor agree on one list.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tfwsl::wslconfig {

enum class ValueKind { size, path, boolean, number, text };

struct KnownKey {
  std::string_view section;  // "wsl2" or "experimental"
  std::string_view name;     // as documented ("kernelCommandLine")
  ValueKind kind;
};

const std::vector<KnownKey>& known_keys();

// The sections .wslconfig has; keys are looked up ASCII case-insensitively, as wsl.exe does.
const std::vector<std::string>& known_sections();
std::optional<KnownKey> find_known_key(std::string_view section, std::string_view key);

// Every documented key name of a section (for "did you mean").
std::vector<std::string> key_names(std::string_view section);

// Sections of /etc/wsl.conf (inside a distro), often put into .wslconfig by mistake.
bool is_wsl_conf_section(std::string_view section);

}  // namespace tfwsl::wslconfig
