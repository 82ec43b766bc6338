#pragma once
// The keys .wslconfig knows, per section, with the kind of value each takes and WSL's default (the
// [wsl2] and [experimental] tables of "Advanced settings configuration in WSL",
// https://learn.microsoft.com/windows/wsl/wsl-config, plus gpuSupport that wsl.exe still reads).
// Data, so lint, the editor and `tfwsl wslconfig show` agree on one list.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tfwsl::wslconfig {

enum class ValueKind { size, path, boolean, number, text };

// How WSL picks a key's value when the file does not set it. Most defaults are fixed; three follow
// the machine (the page's words: "50% of total memory on Windows", "the same number of logical
// processors on Windows", "25% of memory size ... rounded up to the nearest GB").
enum class DefaultRule { fixed, half_of_ram, logical_processors, quarter_of_memory_whole_gb, none };

struct KnownKey {
  std::string_view section;  // "wsl2" or "experimental"
  std::string_view name;     // as documented ("kernelCommandLine")
  ValueKind kind;
  DefaultRule default_rule = DefaultRule::none;
  std::string_view default_value;  // DefaultRule::fixed: the value; otherwise the page's words
};

// Where the defaults come from, for messages and JSON.
inline constexpr std::string_view k_defaults_source = "https://learn.microsoft.com/windows/wsl/wsl-config";

const std::vector<KnownKey>& known_keys();

// The sections .wslconfig has; keys are looked up ASCII case-insensitively, as wsl.exe does.
const std::vector<std::string>& known_sections();
std::optional<KnownKey> find_known_key(std::string_view section, std::string_view key);

// Whether two texts are the same value of a key of `kind`, as WSL reads it: a number by its value
// ("08" is 8), a boolean in any case ("TRUE" is true); every other kind as written. The one
// comparison behind `wslconfig set` (and so its --dry-run and DSC's test and set).
bool same_value(ValueKind kind, std::string_view a, std::string_view b);

// Every documented key name of a section (for "did you mean").
std::vector<std::string> key_names(std::string_view section);

// Sections of /etc/wsl.conf (inside a distro), often put into .wslconfig by mistake.
bool is_wsl_conf_section(std::string_view section);

}  // namespace tfwsl::wslconfig
