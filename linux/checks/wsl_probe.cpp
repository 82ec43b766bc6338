#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <system_error>

#include "common/util/ascii.hpp"
#include "common/wsl/drive_path.hpp"
#include "linux/checks/file_text.hpp"
#include "linux/checks/probes.hpp"

namespace tfwsl::linux_checks {

namespace {

// One value of /etc/wsl.conf (an INI file: `[section]` lines, `key = value`, comments start with # or
// ;), quotes taken off; nothing when absent. Sections and keys are matched without case, as WSL does.
std::optional<std::string> wsl_conf_value(const std::string& wsl_conf, std::string_view wanted_section,
                                          std::string_view key) {
  std::istringstream in(wsl_conf);
  std::string line, section;
  while (std::getline(in, line)) {
    auto t = trim(line);
    if (t.empty() || t[0] == '#' || t[0] == ';') continue;
    if (t.front() == '[' && t.back() == ']') {
      section = ascii_lower(trim(t.substr(1, t.size() - 2)));
      continue;
    }
    auto eq = t.find('=');
    if (section != wanted_section || eq == std::string::npos) continue;
    if (ascii_lower(trim(t.substr(0, eq))) != key) continue;
    std::string value(trim(t.substr(eq + 1)));
    if (value.size() >= 2 && (value.front() == '"' || value.front() == '\'') && value.back() == value.front())
      value = value.substr(1, value.size() - 2);
    return value;
  }
  return std::nullopt;
}

// [automount] root = /windir/  (default /mnt/).
std::string automount_root(const std::string& wsl_conf) {
  std::string value = wsl_conf_value(wsl_conf, "automount", "root").value_or(wsl::k_default_automount_root);
  if (value.empty() || value[0] != '/') return wsl::k_default_automount_root;
  if (value.back() != '/') value += '/';
  return value;
}

// [gpu] enabled = false (WSL 2.x): the distro starts without /dev/dxg and /usr/lib/wsl/lib.
bool gpu_disabled(const std::string& wsl_conf) {
  return ascii_lower(wsl_conf_value(wsl_conf, "gpu", "enabled").value_or("true")) == "false";
}

}  // namespace

WslFacts probe_wsl(const ProbeEnvironment& env) {
  WslFacts f;
  std::error_code ec;
  f.kernel = trim(read_text_file(env.at("/proc/sys/kernel/osrelease")).value_or(""));
  auto version = ascii_lower(read_text_file(env.at("/proc/version")).value_or(""));
  auto kernel = ascii_lower(f.kernel);
  bool microsoft = kernel.find("microsoft") != std::string::npos || version.find("microsoft") != std::string::npos;
  // WSL 2 kernels say "microsoft-standard-WSL2" (older: "-microsoft-standard"); WSL 1 reports a
  // fake kernel like "4.4.0-19041-Microsoft" (capital M, no "standard").
  if (microsoft) {
    bool wsl2 = kernel.find("wsl2") != std::string::npos || kernel.find("microsoft-standard") != std::string::npos;
    f.kind = wsl2 ? agent_api::WslKind::wsl2 : agent_api::WslKind::wsl1;
  }
  auto dxg = env.at("/dev/dxg");
  f.dxg = std::filesystem::exists(dxg, ec);
  if (!f.dxg) f.dxg_error = "/dev/dxg: No such file or directory";
  auto lib = env.at("/usr/lib/wsl/lib");
  f.wsl_lib_dir = std::filesystem::is_directory(lib, ec);
  if (f.wsl_lib_dir) {
    for (const auto& entry : std::filesystem::directory_iterator(lib, ec))
      f.wsl_lib_files.push_back(entry.path().filename().string());
    std::sort(f.wsl_lib_files.begin(), f.wsl_lib_files.end());
  }
  auto conf = read_text_file(env.at("/etc/ld.so.conf.d/ld.wsl.conf"));
  if (conf) {
    f.ld_wsl_conf_text = trim(*conf);
    f.ld_wsl_conf = conf->find("/usr/lib/wsl/lib") != std::string::npos;
  }
  const std::string wsl_conf = read_text_file(env.at("/etc/wsl.conf")).value_or("");
  f.automount_root = automount_root(wsl_conf);
  f.gpu_disabled = gpu_disabled(wsl_conf);
  if (const char* name = std::getenv("WSL_DISTRO_NAME"); name && *name && env.root == "/") {
    f.distro = name;
  } else {
    std::istringstream in(read_text_file(env.at("/etc/os-release")).value_or(""));
    std::string line;
    while (std::getline(in, line))
      if (line.rfind("PRETTY_NAME=", 0) == 0) {
        f.distro = line.substr(12);
        if (f.distro.size() >= 2 && f.distro.front() == '"') f.distro = f.distro.substr(1, f.distro.size() - 2);
      }
  }
  return f;
}

}  // namespace tfwsl::linux_checks
