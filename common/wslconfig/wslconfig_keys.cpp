#include "common/wslconfig/wslconfig_keys.hpp"

#include <algorithm>
#include <array>

#include "common/parse/line_tools.hpp"
#include "common/util/ascii.hpp"

namespace tfwsl::wslconfig {

const std::vector<KnownKey>& known_keys() {
  using enum ValueKind;
  using R = DefaultRule;
  // The defaults as the page's tables give them (checked 2026-12; WSL 2.x).
  static const std::vector<KnownKey> keys{
      {"wsl2", "kernel", path, R::fixed, "the Microsoft-built kernel provided inbox"},
      {"wsl2", "kernelModules", path, R::fixed, "the Microsoft-built kernel modules provided inbox"},
      {"wsl2", "memory", size, R::half_of_ram, "50% of total memory on Windows"},
      {"wsl2", "processors", number, R::logical_processors, "the same number of logical processors on Windows"},
      {"wsl2", "localhostForwarding", boolean, R::fixed, "true"},
      {"wsl2", "kernelCommandLine", text, R::fixed, ""},
      {"wsl2", "safeMode", boolean, R::fixed, "false"},
      {"wsl2", "swap", size, R::quarter_of_memory_whole_gb, "25% of memory, rounded up to the nearest GB"},
      {"wsl2", "swapFile", path, R::fixed, "%Temp%\\swap.vhdx"},
      {"wsl2", "pageReporting", boolean, R::fixed, "true"},
      {"wsl2", "guiApplications", boolean, R::fixed, "true"},
      {"wsl2", "debugConsole", boolean, R::fixed, "false"},
      {"wsl2", "maxCrashDumpCount", number, R::fixed, "10"},
      {"wsl2", "nestedVirtualization", boolean, R::fixed, "true"},
      {"wsl2", "vmIdleTimeout", number, R::fixed, "60000"},
      {"wsl2", "dnsProxy", boolean, R::fixed, "true"},
      {"wsl2", "networkingMode", text, R::fixed, "NAT"},
      {"wsl2", "firewall", boolean, R::fixed, "true"},
      {"wsl2", "dnsTunneling", boolean, R::fixed, "true"},
      {"wsl2", "autoProxy", boolean, R::fixed, "true"},
      {"wsl2", "defaultVhdSize", size, R::fixed, "1TB"},
      {"wsl2", "gpuSupport", boolean, R::fixed, "true"},
      {"experimental", "autoMemoryReclaim", text, R::fixed, "dropCache"},
      {"experimental", "sparseVhd", boolean, R::fixed, "false"},
      {"experimental", "bestEffortDnsParsing", boolean, R::fixed, "false"},
      {"experimental", "dnsTunnelingIpAddress", text, R::fixed, "10.255.255.254"},
      {"experimental", "initialAutoProxyTimeout", number, R::fixed, "1000"},
      {"experimental", "ignoredPorts", text, R::fixed, ""},
      {"experimental", "hostAddressLoopback", boolean, R::fixed, "false"},
      // Formerly experimental; wsl.exe still reads them under the old header for compatibility
      // (the [wsl2] line wins when both are set).
      {"experimental", "networkingMode", text},
      {"experimental", "dnsTunneling", boolean},
      {"experimental", "firewall", boolean},
      {"experimental", "autoProxy", boolean},
  };
  return keys;
}

const std::vector<std::string>& known_sections() {
  static const std::vector<std::string> sections{"wsl2", "experimental"};
  return sections;
}

std::optional<KnownKey> find_known_key(std::string_view section, std::string_view key) {
  for (const KnownKey& k : known_keys())
    if (iequals(k.section, section) && iequals(k.name, key)) return k;
  return std::nullopt;
}

std::vector<std::string> key_names(std::string_view section) {
  std::vector<std::string> names;
  for (const KnownKey& k : known_keys())
    if (iequals(k.section, section)) names.emplace_back(k.name);
  return names;
}

bool is_wsl_conf_section(std::string_view section) {
  constexpr std::array<std::string_view, 8> sections{"boot", "automount", "interop", "network",
                                                     "user", "gpu",       "time",    "filesystem"};
  return std::any_of(sections.begin(), sections.end(), [&](std::string_view s) { return iequals(s, section); });
}

bool same_value(ValueKind kind, std::string_view a, std::string_view b) {
  if (kind == ValueKind::boolean) return iequals(a, b);
  if (kind == ValueKind::number && ascii_all_digits(a) && ascii_all_digits(b) && !a.empty() && !b.empty()) {
    a.remove_prefix(std::min(a.find_first_not_of('0'), a.size() - 1));
    b.remove_prefix(std::min(b.find_first_not_of('0'), b.size() - 1));
    return a == b;
  }
  return a == b;
}

}  // namespace tfwsl::wslconfig
