#include "common/check/check_table.hpp"

#include <algorithm>

namespace tfwsl {
namespace {

constexpr std::string_view k_doctor_md = "docs/doctor.md#checks";

using S = CheckSource;
constexpr CheckStatus k_fail = CheckStatus::fail;
constexpr CheckStatus k_warn = CheckStatus::warn;

}  // namespace

// Each row's needs say why in a comment: what the check reads, and whose fault makes it fail or
// not run.
const std::vector<CheckRow>& check_table() {
  static const std::vector<CheckRow> rows{
      // Windows facts (registry, nvidia-smi.exe, wsl.exe) exist only on Windows.
      {"host.windows-build", "host", S::host, "platform.windows", k_fail, k_doctor_md},
      {"host.virtualization", "host", S::host, "platform.windows", k_fail, k_doctor_md},
      {"host.nvidia-driver", "host", S::host, "platform.windows", k_fail, k_doctor_md},
      // The model of the driver's GPU.
      {"host.gpu-driver-model", "host", S::host, "platform.windows host.nvidia-driver", k_fail, k_doctor_md},
      {"host.tdr", "host", S::host, "platform.windows", k_warn, k_doctor_md},
      {"host.fast-startup", "host", S::host, "platform.windows", k_warn, k_doctor_md},
      // wsl.exe refuses to list anything with virtualization off.
      {"wsl.installed", "wsl", S::wsl_exe, "platform.windows host.virtualization", k_fail, k_doctor_md},
      {"wsl.version", "wsl", S::wsl_exe, "platform.windows wsl.installed", k_warn, k_doctor_md},
      {"wsl.default-version", "wsl", S::wsl_exe, "platform.windows wsl.installed", k_warn, k_doctor_md},
      {"wsl.distro", "wsl", S::wsl_exe, "platform.windows wsl.installed", k_fail, k_doctor_md},
      // The agent runs in the chosen distro; forwarding is tried once it listens.
      {"wsl.agent", "wsl", S::doctor, "wsl.distro", k_fail, k_doctor_md},
      {"wsl.localhost-forwarding", "wsl", S::doctor, "wsl.agent", k_fail, k_doctor_md},
      // .wslconfig is read from the user's profile folder on either platform; a policy or a setting
      // WSL ignores is read from .wslconfig and the registry alone.
      {"wslconfig.parse", "wslconfig", S::doctor, "", k_fail, k_doctor_md},
      {"wslconfig.memory", "wslconfig", S::doctor, "", k_fail, k_doctor_md},
      {"wslconfig.overrides", "wslconfig", S::doctor, "", k_fail, "docs/wslconfig.md#show-what-wsl-will-use"},
      // Everything below is the agent's observation of the distro, so it needs the agent. /dev/dxg
      // and /usr/lib/wsl/lib (libcuda, the loader path) exist only in a WSL 2 distro, and the
      // latter comes from the Windows NVIDIA driver. gpuSupport=false (wslconfig.overrides) takes
      // /dev/dxg away.
      {"linux.dxg", "linux", S::agent, "wsl.agent wsl.distro wslconfig.overrides", k_fail, k_doctor_md},
      {"linux.libcuda", "linux", S::agent, "wsl.agent wsl.distro host.nvidia-driver", k_fail, k_doctor_md},
      {"linux.no-linux-driver", "linux", S::agent, "wsl.agent", k_fail, k_doctor_md},
      {"linux.ldconfig", "linux", S::agent, "wsl.agent wsl.distro host.nvidia-driver", k_fail, k_doctor_md},
      // CUDA sees a GPU through /dev/dxg and the stub libcuda, not past a Linux driver, and not in TCC mode.
      {"gpu.visible", "gpu", S::agent,
       "wsl.agent linux.dxg linux.libcuda linux.no-linux-driver linux.ldconfig host.gpu-driver-model", k_fail, k_doctor_md},
      {"gpu.compute-capability", "gpu", S::agent, "gpu.visible", k_fail, k_doctor_md},
      {"cuda.toolkit", "cuda", S::agent, "wsl.agent", k_warn, k_doctor_md},
      {"cudnn", "cudnn", S::agent, "wsl.agent", k_warn, k_doctor_md},
      {"python.version", "python", S::agent, "wsl.agent", k_fail, k_doctor_md},
      {"tf.installed", "tf", S::agent, "wsl.agent python.version", k_fail, k_doctor_md},
      {"tf.build", "tf", S::agent, "tf.installed", k_fail, k_doctor_md},
      {"tf.gpu", "tf", S::agent, "tf.installed tf.build gpu.visible", k_fail, k_doctor_md},
      // On Windows the doctor tells the judge .wslconfig's memory=, and this says whether it is in effect.
      {"mem.effective", "mem", S::agent, "wsl.agent", k_warn, k_doctor_md},
      {"disk.free", "disk", S::agent, "wsl.agent", k_fail, k_doctor_md},
      {"data.location", "data", S::agent, "wsl.agent", k_warn, k_doctor_md},
      // Windows' driver version vs NVML's, which lives in /usr/lib/wsl/lib with libcuda.
      {"gpu.driver-parity", "gpu", S::doctor, "wsl.agent host.nvidia-driver linux.libcuda", k_warn, k_doctor_md},
  };
  return rows;
}

const std::vector<CheckCategory>& check_categories() {
  static const std::vector<CheckCategory> categories{
      {"host", "Windows", "host.nvidia-driver"},  {"wsl", "WSL", "wsl.version"},
      {"wslconfig", ".wslconfig", "wslconfig.memory"}, {"linux", "Linux side", "linux.libcuda"},
      {"gpu", "GPU", "gpu.visible"},              {"cuda", "CUDA", "cuda.toolkit"},
      {"cudnn", "cuDNN", "cudnn"},                {"python", "Python", "python.version"},
      {"tf", "TensorFlow", "tf.installed"},        {"mem", "Memory", "mem.effective"},
      {"disk", "Disk", "disk.free"},              {"data", "Data", "data.location"},
  };
  return categories;
}

const CheckRow* find_check_row(std::string_view id) {
  const auto& rows = check_table();
  auto it = std::find_if(rows.begin(), rows.end(), [&](const CheckRow& r) { return r.id == id; });
  return it == rows.end() ? nullptr : &*it;
}

const CheckCategory* find_check_category(std::string_view name) {
  const auto& categories = check_categories();
  auto it = std::find_if(categories.begin(), categories.end(), [&](const CheckCategory& c) { return c.name == name; });
  return it == categories.end() ? nullptr : &*it;
}

bool is_precondition(std::string_view id) { return id == k_platform_windows; }

std::vector<std::string> check_ids() {
  std::vector<std::string> ids;
  for (const auto& row : check_table()) ids.emplace_back(row.id);
  return ids;
}

std::vector<std::string> check_ids(CheckSource source) {
  std::vector<std::string> ids;
  for (const auto& row : check_table())
    if (row.source == source) ids.emplace_back(row.id);
  return ids;
}

std::vector<std::string> needs_of(const CheckRow& row) {
  std::vector<std::string> needs;
  std::string_view rest = row.needs;
  while (!rest.empty()) {
    const auto space = rest.find(' ');
    if (space != 0) needs.emplace_back(rest.substr(0, space));
    if (space == std::string_view::npos) break;
    rest.remove_prefix(space + 1);
  }
  return needs;
}

const DependencyTable& check_dependencies() {
  static const DependencyTable table = [] {
    DependencyTable t;
    for (const auto& row : check_table()) t.push_back({std::string(row.id), needs_of(row)});
    return t;
  }();
  return table;
}

Precondition platform_windows(bool is_windows) {
  return {std::string(k_platform_windows), is_windows, "not Windows: the host and WSL checks do not apply"};
}

}  // namespace tfwsl
