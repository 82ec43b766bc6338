#include "common/wslconfig/wslconfig_keys.hpp"

#include <algorithm>
#include <array>

#include "common/parse/line_tools.hpp"
#include "common/util/ascii.hpp"

namespace tfwsl::wslconfig {

const std::vector<KnownKey>& known_keys() {
  static const std::vector<KnownKey> keys{
      {"wsl2", "kernel", ValueKind::path},
      {"wsl2", "kernelModules", ValueKind::path},
      {"wsl2", "memory", ValueKind::size},
      {"wsl2", "processors", ValueKind::number},
      {"wsl2", "localhostForwarding", ValueKind::boolean},
      {"wsl2", "kernelCommandLine", ValueKind::text},
      {"wsl2", "safeMode", ValueKind::boolean},
      {"wsl2", "swap", ValueKind::size},
      {"wsl2", "swapFile", ValueKind::path},
      {"wsl2", "pageReporting", ValueKind::boolean},
      {"wsl2", "guiApplications", ValueKind::boolean},
      {"wsl2", "debugConsole", ValueKind::boolean},
      {"wsl2", "maxCrashDumpCount", ValueKind::number},
      {"wsl2", "nestedVirtualization", ValueKind::boolean},
      {"wsl2", "vmIdleTimeout", ValueKind::number},
      {"wsl2", "dnsProxy", ValueKind::boolean},
      {"wsl2", "networkingMode", ValueKind::text},
      {"wsl2", "firewall", ValueKind::boolean},
      {"wsl2", "dnsTunneling", ValueKind::boolean},
      {"wsl2", "autoProxy", ValueKind::boolean},
      {"wsl2", "defaultVhdSize", ValueKind::size},
      {"wsl2", "gpuSupport", ValueKind::boolean},
      {"experimental", "autoMemoryReclaim", ValueKind::text},
      {"experimental", "sparseVhd", ValueKind::boolean},
      {"experimental", "bestEffortDnsParsing", ValueKind::boolean},
      {"experimental", "dnsTunnelingIpAddress", ValueKind::text},
      {"experimental", "initialAutoProxyTimeout", ValueKind::number},
      {"experimental", "ignoredPorts", ValueKind::text},
      {"experimental", "hostAddressLoopback", ValueKind::boolean},
      // Formerly experimental; wsl.exe still reads them under the old header for compatibility.
      {"experimental", "networkingMode", ValueKind::text},
      {"experimental", "dnsTunneling", ValueKind::boolean},
      {"experimental", "firewall", ValueKind::boolean},
      {"experimental", "autoProxy", ValueKind::boolean},
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
  constexpr std::array<std::string_view, 8> sections{"boot", "automount", "interop", "network", "user", "gpu", "time",
                                                     "filesystem"};
  return std::any_of(sections.begin(), sections.end(), [&](std::string_view s) { return iequals(s, section); });
}

}  // namespace tfwsl::wslconfig
