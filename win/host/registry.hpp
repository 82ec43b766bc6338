#pragma once
// The Windows registry as a port: read-only, no admin rights needed for anything tfwsl reads.
// The Windows implementation is win/platform/windows_registry_windows.cpp; tests use MapRegistry.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tfwsl::host {

// Keys are full paths with the hive first: "HKLM\\SYSTEM\\CurrentControlSet\\Control\\GraphicsDrivers".
class Registry {
 public:
  virtual ~Registry() = default;
  virtual std::optional<std::string> read_string(const std::string& key, const std::string& value) const = 0;
  virtual std::optional<std::uint32_t> read_dword(const std::string& key, const std::string& value) const = 0;
  virtual std::vector<std::string> subkeys(const std::string& key) const = 0;  // names only
  virtual bool key_exists(const std::string& key) const = 0;
};

// An in-memory registry (tests, and the empty registry of the native Linux build).
class MapRegistry final : public Registry {
 public:
  void set_string(const std::string& key, const std::string& value, std::string data);
  void set_dword(const std::string& key, const std::string& value, std::uint32_t data);

  std::optional<std::string> read_string(const std::string& key, const std::string& value) const override;
  std::optional<std::uint32_t> read_dword(const std::string& key, const std::string& value) const override;
  std::vector<std::string> subkeys(const std::string& key) const override;
  bool key_exists(const std::string& key) const override;

 private:
  std::map<std::string, std::map<std::string, std::string>> m_strings;  // lower-cased key -> value -> data
  std::map<std::string, std::map<std::string, std::uint32_t>> m_dwords;
};

// Well-known places (NVIDIA's driver release notes for the driver numbering; Windows documentation for the rest).
namespace reg {
inline constexpr const char* k_current_version = "HKLM\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion";
inline constexpr const char* k_display_class =
    "HKLM\\SYSTEM\\CurrentControlSet\\Control\\Class\\{4d36e968-e325-11ce-bfc1-08002be10318}";
inline constexpr const char* k_nvidia_uninstall =
    "HKLM\\SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\Uninstall\\{B2FE1952-0186-46C3-BAEC-A80AA35AC5B8}_Display."
    "Driver";
inline constexpr const char* k_graphics_drivers = "HKLM\\SYSTEM\\CurrentControlSet\\Control\\GraphicsDrivers";
inline constexpr const char* k_power = "HKLM\\SYSTEM\\CurrentControlSet\\Control\\Session Manager\\Power";
inline constexpr const char* k_lxss = "HKCU\\Software\\Microsoft\\Windows\\CurrentVersion\\Lxss";
// Group Policy / Intune settings for WSL (microsoft/WSL intune/WSL.admx): DWORDs that override .wslconfig.
inline constexpr const char* k_wsl_policies = "HKLM\\SOFTWARE\\Policies\\WSL";
// Present when the Virtual Machine Platform (the hypervisor's compute service) is installed.
inline constexpr const char* k_vmcompute = "HKLM\\SYSTEM\\CurrentControlSet\\Services\\vmcompute";
}  // namespace reg

}  // namespace tfwsl::host
