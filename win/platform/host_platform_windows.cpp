// The Windows registry (read-only, 64-bit view) and the OS facts. RtlGetVersion, not GetVersionEx:
// the latter reports Windows 8 to any program whose manifest does not list newer systems.
#include <windows.h>

#include "common/text/utf_convert.hpp"
#include "win/platform/host_platform.hpp"

namespace tfwsl::cli {
namespace {

struct OpenKey {
  HKEY handle = nullptr;
  ~OpenKey() {
    if (handle) RegCloseKey(handle);
  }
};

bool open_key(const std::string& path, OpenKey& key) {
  auto slash = path.find('\\');
  std::string hive = path.substr(0, slash);
  std::string rest = slash == std::string::npos ? "" : path.substr(slash + 1);
  HKEY root = hive == "HKCU" ? HKEY_CURRENT_USER : hive == "HKLM" ? HKEY_LOCAL_MACHINE : nullptr;
  if (!root) return false;
  return RegOpenKeyExW(root, utf8_to_wide(rest).c_str(), 0, KEY_READ | KEY_WOW64_64KEY, &key.handle) == ERROR_SUCCESS;
}

class WindowsRegistry final : public host::Registry {
 public:
  std::optional<std::string> read_string(const std::string& key, const std::string& value) const override {
    OpenKey k;
    if (!open_key(key, k)) return std::nullopt;
    std::wstring name = utf8_to_wide(value);
    DWORD type = 0, size = 0;
    if (RegQueryValueExW(k.handle, name.c_str(), nullptr, &type, nullptr, &size) != ERROR_SUCCESS) return std::nullopt;
    if (type != REG_SZ && type != REG_EXPAND_SZ) return std::nullopt;
    std::wstring data(size / sizeof(wchar_t) + 1, L'\0');
    if (RegQueryValueExW(k.handle, name.c_str(), nullptr, &type, reinterpret_cast<BYTE*>(data.data()), &size) !=
        ERROR_SUCCESS)
      return std::nullopt;
    data.resize(wcsnlen(data.c_str(), data.size()));
    return wide_to_utf8(data);
  }
  std::optional<std::uint32_t> read_dword(const std::string& key, const std::string& value) const override {
    OpenKey k;
    if (!open_key(key, k)) return std::nullopt;
    DWORD type = 0, data = 0, size = sizeof data;
    if (RegQueryValueExW(k.handle, utf8_to_wide(value).c_str(), nullptr, &type, reinterpret_cast<BYTE*>(&data),
                         &size) != ERROR_SUCCESS ||
        type != REG_DWORD)
      return std::nullopt;
    return static_cast<std::uint32_t>(data);
  }
  std::vector<std::string> subkeys(const std::string& key) const override {
    std::vector<std::string> names;
    OpenKey k;
    if (!open_key(key, k)) return names;
    for (DWORD i = 0;; ++i) {
      wchar_t name[256];
      DWORD len = 256;
      if (RegEnumKeyExW(k.handle, i, name, &len, nullptr, nullptr, nullptr, nullptr) != ERROR_SUCCESS) break;
      names.push_back(wide_to_utf8(std::wstring(name, len)));
    }
    return names;
  }
  bool key_exists(const std::string& key) const override {
    OpenKey k;
    return open_key(key, k);
  }
};

using RtlGetVersionFn = LONG(WINAPI*)(OSVERSIONINFOW*);

}  // namespace

std::unique_ptr<host::Registry> make_system_registry() { return std::make_unique<WindowsRegistry>(); }

host::SystemInfo read_system_info() {
  host::SystemInfo info;
  info.is_windows = true;
  if (HMODULE ntdll = GetModuleHandleW(L"ntdll.dll")) {
    auto fn = reinterpret_cast<RtlGetVersionFn>(reinterpret_cast<void*>(GetProcAddress(ntdll, "RtlGetVersion")));
    OSVERSIONINFOW v{};
    v.dwOSVersionInfoSize = sizeof v;
    if (fn && fn(&v) == 0) info.build = static_cast<int>(v.dwBuildNumber);
  }
  MEMORYSTATUSEX mem{};
  mem.dwLength = sizeof mem;
  if (GlobalMemoryStatusEx(&mem)) info.ram_bytes = mem.ullTotalPhys;
#ifndef PF_VIRT_FIRMWARE_ENABLED
#define PF_VIRT_FIRMWARE_ENABLED 21
#endif
  // Reports false both when firmware has it off and when a hypervisor already runs (then the
  // Virtual Machine Platform answers instead); only a definite "on" is taken as a fact.
  if (IsProcessorFeaturePresent(PF_VIRT_FIRMWARE_ENABLED)) info.firmware_virtualization = true;
  return info;
}

}  // namespace tfwsl::cli
