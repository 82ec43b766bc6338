#include "win/host/host_checks.hpp"

#include "common/util/byte_size_text.hpp"
#include "common/version/driver_version.hpp"

namespace tfwsl::host {
namespace {
// NVIDIA's driver download page: what a person picks there is named in the fix (tfwsl cannot
// install a Windows driver). https://docs.nvidia.com/cuda/wsl-user-guide/ points to the same page.
constexpr const char* k_nvidia_driver_page = "https://www.nvidia.com/Download/index.aspx";
}  // namespace

namespace {

CheckResult not_windows(const char* id) {
  return make_check(id, CheckStatus::skip, "not running on Windows: host checks need tfwsl.exe on the Windows side");
}

}  // namespace

CheckResult check_windows_build(const HostFacts& facts, const HostPolicy& policy) {
  if (!facts.is_windows) return not_windows("host.windows-build");
  if (!facts.windows_build) {
    return make_check(
        "host.windows-build", CheckStatus::warn, "the Windows build could not be read",
        "run 'winver' and make sure it shows build " + std::to_string(policy.min_windows_build) + " or later");
  }
  std::string shown = std::to_string(*facts.windows_build) +
                      (facts.windows_ubr ? "." + std::to_string(*facts.windows_ubr) : std::string());
  CheckResult r;
  if (*facts.windows_build < policy.min_windows_build) {
    r = make_check("host.windows-build", CheckStatus::fail,
                   "Windows build " + shown + " is older than " + std::to_string(policy.min_windows_build) +
                       ": WSL 2 has no GPU there",
                   "update Windows through Windows Update to Windows 11, or to Windows 10 build " +
                       std::to_string(policy.min_windows_build) + " or later");
  } else {
    r = make_check("host.windows-build", CheckStatus::ok, "Windows build " + shown + " supports GPU compute in WSL 2");
  }
  r.values = {{"build", *facts.windows_build}, {"min_build", policy.min_windows_build}};
  if (facts.windows_ubr) r.values["ubr"] = *facts.windows_ubr;
  if (!facts.windows_product.empty()) r.details.push_back("product: " + facts.windows_product);
  r.details.push_back("minimum for GPU in WSL 2: " + std::to_string(policy.min_windows_build));
  if (facts.ram_bytes) r.details.push_back("physical memory: " + format_gib(*facts.ram_bytes));
  return r;
}

CheckResult check_virtualization(const HostFacts& facts) {
  if (!facts.is_windows) return not_windows("host.virtualization");
  CheckResult r;
  if (facts.firmware_virtualization == false) {
    r = make_check(
        "host.virtualization", CheckStatus::fail, "virtualization is turned off in the firmware: WSL 2 cannot start",
        "turn on Intel VT-x / AMD-V (SVM) in the BIOS/UEFI settings, then run: wsl.exe --install --no-distribution");
  } else if (facts.vm_platform == false) {
    r = make_check("host.virtualization", CheckStatus::fail, "the Virtual Machine Platform is not installed",
                   "run in an administrator terminal: wsl.exe --install --no-distribution, then restart Windows");
  } else if (!facts.firmware_virtualization && !facts.vm_platform) {
    r = make_check("host.virtualization", CheckStatus::skip,
                   "virtualization state could not be read without admin rights");
  } else {
    r = make_check("host.virtualization", CheckStatus::ok,
                   "virtualization and the Virtual Machine Platform are available");
  }
  auto show = [](const std::optional<bool>& v) { return v ? (*v ? "yes" : "no") : "unknown"; };
  r.details.push_back(std::string("firmware virtualization: ") + show(facts.firmware_virtualization));
  r.details.push_back(std::string("Virtual Machine Platform (vmcompute service): ") + show(facts.vm_platform));
  return r;
}

CheckResult check_nvidia_driver(const HostFacts& facts, const HostPolicy& policy) {
  if (!facts.is_windows) return not_windows("host.nvidia-driver");
  if (facts.gpus.empty()) {
    CheckResult r = make_check("host.nvidia-driver", CheckStatus::fail, "no NVIDIA driver found on Windows",
                               "install the NVIDIA driver for Windows (the only driver WSL needs) from " +
                                   std::string(k_nvidia_driver_page) +
                                   ": pick your GPU, your Windows, and the Game Ready or Studio driver");
    r.details = facts.notes;
    return r;
  }
  const HostGpu& gpu = facts.gpus.front();
  auto have = parse_driver_version(gpu.driver_version);
  auto need = parse_driver_version(policy.min_driver);
  CheckResult r;
  if (!have) {
    r = make_check("host.nvidia-driver", CheckStatus::warn,
                   "the NVIDIA driver version '" + gpu.driver_version + "' is not understood",
                   "run nvidia-smi.exe and check the Driver Version it prints");
  } else if (need && *have < *need) {
    r = make_check("host.nvidia-driver", CheckStatus::fail,
                   "NVIDIA driver " + have->to_string() + " is older than " + need->to_string() + ", the minimum for " +
                       policy.profile_name,
                   "install NVIDIA driver " + need->to_string() + " or newer on Windows from " +
                       std::string(k_nvidia_driver_page) +
                       " (pick your GPU, your Windows, Game Ready or Studio), then run wsl --shutdown");
  } else {
    r = make_check("host.nvidia-driver", CheckStatus::ok, "NVIDIA driver " + have->to_string() + " (" + gpu.name + ")");
  }
  for (const auto& g : facts.gpus) {
    std::string line = g.name + ": driver " + g.driver_version;
    if (!g.windows_driver_version.empty()) line += " (Windows numbering " + g.windows_driver_version + ")";
    line += ", from " + g.source;
    r.details.push_back(line);
  }
  r.values["driver"] = have ? have->to_string() : gpu.driver_version;
  if (need) r.values["min_driver"] = need->to_string();
  if (need) r.details.push_back("minimum for " + policy.profile_name + ": " + need->to_string());
  for (const auto& n : facts.notes) r.details.push_back(n);
  return r;
}

CheckResult check_gpu_driver_model(const HostFacts& facts) {
  if (!facts.is_windows) return not_windows("host.gpu-driver-model");
  if (facts.gpus.empty()) return make_check("host.gpu-driver-model", CheckStatus::skip, "no NVIDIA GPU found");
  std::vector<std::string> tcc, unknown;
  CheckResult r;
  for (const auto& g : facts.gpus) {
    r.details.push_back(g.name + ": " + to_string(g.driver_model));
    if (g.driver_model == GpuDriverModel::tcc) tcc.push_back(g.name);
    if (g.driver_model == GpuDriverModel::unknown) unknown.push_back(g.name);
  }
  r.id = "host.gpu-driver-model";
  if (!tcc.empty()) {
    bool all = tcc.size() == facts.gpus.size();
    r.status = all ? CheckStatus::fail : CheckStatus::warn;
    r.summary = tcc.front() + " runs in TCC mode: TCC GPUs are invisible to WSL 2";
    r.fix = "switch it to WDDM in an administrator terminal: nvidia-smi -g 0 -dm 0, then restart Windows";
  } else if (unknown.size() == facts.gpus.size()) {
    r.status = CheckStatus::skip;
    r.summary = "driver model unknown (nvidia-smi.exe not available)";
  } else {
    r.status = CheckStatus::ok;
    r.summary = "WDDM: the GPU is shared with WSL 2";
  }
  return r;
}

CheckResult check_tdr(const HostFacts& facts) {
  if (!facts.is_windows) return not_windows("host.tdr");
  CheckResult r;
  std::uint32_t delay = facts.tdr_delay_s.value_or(2);
  if (facts.tdr_level && *facts.tdr_level == 0) {
    r = make_check("host.tdr", CheckStatus::ok, "GPU timeout detection is off (TdrLevel 0)");
  } else if (delay < 2) {
    r = make_check(
        "host.tdr", CheckStatus::warn,
        "GPU kernels are reset after " + std::to_string(delay) + " s (TdrDelay): long training steps will be killed",
        "set HKLM\\SYSTEM\\CurrentControlSet\\Control\\GraphicsDrivers TdrDelay (DWORD) to 60 and restart Windows");
  } else {
    r = make_check("host.tdr", CheckStatus::ok,
                   "GPU timeout " + std::to_string(delay) + " s" + (facts.tdr_delay_s ? "" : " (Windows default)"));
    if (delay < 10) {
      r.details.push_back("kernels running longer than " + std::to_string(delay) +
                          " s under WDDM are reset, in WSL too; raise TdrDelay if you see 'device lost' errors");
    }
  }
  r.details.push_back("TdrDelay: " +
                      (facts.tdr_delay_s ? std::to_string(*facts.tdr_delay_s) : std::string("not set (2)")));
  return r;
}

CheckResult check_fast_startup(const HostFacts& facts) {
  if (!facts.is_windows) return not_windows("host.fast-startup");
  if (!facts.fast_startup)
    return make_check("host.fast-startup", CheckStatus::skip, "Fast Startup setting not readable");
  if (*facts.fast_startup) {
    return make_check(
        "host.fast-startup", CheckStatus::warn,
        "Fast Startup is on: a known cause of WSL's localhost forwarding breaking after boot",
        "turn it off: Control Panel > Power Options > Choose what the power buttons do > untick 'Turn on fast "
        "startup' (or run 'powercfg /h off' as administrator)");
  }
  return make_check("host.fast-startup", CheckStatus::ok, "Fast Startup is off");
}

std::vector<CheckResult> assess_host(const HostFacts& facts, const HostPolicy& policy) {
  return {check_windows_build(facts, policy),
          check_virtualization(facts),
          check_nvidia_driver(facts, policy),
          check_gpu_driver_model(facts),
          check_tdr(facts),
          check_fast_startup(facts)};
}

}  // namespace tfwsl::host
