#pragma once
// What users paste when the CUDA driver library inside WSL is in question: ldconfig's warnings
// ("/sbin/ldconfig.real: /usr/lib/wsl/lib/libcuda.so.1 is not a symbolic link"), `ldconfig -p`
// cache listings, `ls /usr/lib/wsl/lib` (or PowerShell's `dir C:\Windows\System32\lxss\lib`, the
// same folder), and lsmod/modprobe probes for an nvidia kernel module.

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace tfwsl::parse {

struct LdconfigEntry {
  std::string name;  // "libcuda.so.1"
  std::string path;  // "/usr/lib/wsl/lib/libcuda.so.1"
};

struct LdconfigResult {
  std::vector<std::string> not_symlink;    // paths ldconfig said are "not a symbolic link"
  std::vector<LdconfigEntry> cache;        // `ldconfig -p` lines "name (libc6,x86-64) => path", path ending in "/name"
  std::vector<std::string> wsl_lib_files;  // lib*.so names listed with or under /usr/lib/wsl/lib
  bool libcuda_in_wsl_lib = false;         // libcuda.so* seen in /usr/lib/wsl/lib
  bool libcuda_elsewhere = false;          // libcuda.so* cached or listed outside /usr/lib/wsl
  // The folder was listed whole (a "Directory:" or "total" line, or six names or more), not through
  // a pattern such as libcuda*: what it lacks is missing, not merely filtered out.
  bool whole_wsl_lib_listing = false;
};

LdconfigResult parse_ldconfig(std::string_view text);

// Confidence in [0, 1]; `commands` are the commands the paste showed at its prompts.
double looks_like_ldconfig(std::string_view text, const std::vector<std::string>& commands = {});

nlohmann::json to_json(const LdconfigResult& result);

}  // namespace tfwsl::parse
