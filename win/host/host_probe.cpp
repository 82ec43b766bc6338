#include "win/host/host_probe.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <charconv>
#include <sstream>

#include "common/util/ascii.hpp"
#include "common/version/driver_version.hpp"

namespace tfwsl::host {
namespace {

GpuDriverModel parse_model(const std::string& text) {
  if (text == "WDDM") return GpuDriverModel::wddm;
  if (text == "TCC") return GpuDriverModel::tcc;
  if (text == "MCDM") return GpuDriverModel::mcdm;
  return GpuDriverModel::unknown;
}

// The display-class subkeys (0000, 0001, ...) of NVIDIA adapters: DriverVersion in Windows'
// numbering, converted to NVIDIA's (31.0.15.3758 -> 537.58).
std::vector<HostGpu> gpus_from_display_class(const Registry& registry, std::vector<std::string>& notes) {
  std::vector<HostGpu> gpus;
  for (const auto& sub : registry.subkeys(reg::k_display_class)) {
    const std::string key = std::string(reg::k_display_class) + "\\" + sub;
    auto provider = registry.read_string(key, "ProviderName").value_or("");
    auto desc = registry.read_string(key, "DriverDesc").value_or("");
    if (!icontains(provider, "nvidia") && !icontains(desc, "nvidia")) continue;
    auto windows = registry.read_string(key, "DriverVersion");
    if (!windows) continue;
    HostGpu gpu;
    gpu.name = desc;
    gpu.windows_driver_version = *windows;
    gpu.source = "registry (display class)";
    if (auto v = parse_driver_version(*windows))
      gpu.driver_version = v->to_string();
    else
      notes.push_back("display driver version '" + *windows + "' not understood: " + v.error().message);
    gpus.push_back(gpu);
  }
  return gpus;
}

}  // namespace

const char* to_string(GpuDriverModel model) {
  switch (model) {
    case GpuDriverModel::wddm:
      return "WDDM";
    case GpuDriverModel::tcc:
      return "TCC";
    case GpuDriverModel::mcdm:
      return "MCDM";
    case GpuDriverModel::unknown:
      return "unknown";
  }
  return "unknown";
}

std::vector<std::string> nvidia_smi_candidates(
    const std::function<std::optional<std::string>(const std::string&)>& getenv) {
  std::vector<std::string> c;
  if (auto configured = getenv(k_nvidia_smi_env)) return {*configured};
  if (auto root = getenv("SystemRoot")) c.push_back(*root + "\\System32\\nvidia-smi.exe");
  std::string program_files = getenv("ProgramW6432").value_or(getenv("ProgramFiles").value_or("C:\\Program Files"));
  c.push_back(program_files + "\\NVIDIA Corporation\\NVSMI\\nvidia-smi.exe");
  return c;
}

std::vector<std::string> nvidia_smi_query_argv(const std::string& exe) {
  return {exe, "--query-gpu=name,driver_version,driver_model.current,memory.total", "--format=csv,noheader"};
}

std::vector<HostGpu> parse_nvidia_smi_query(const std::string& csv) {
  std::vector<HostGpu> gpus;
  std::istringstream in(csv);
  std::string line;
  while (std::getline(in, line)) {
    std::vector<std::string> fields;
    std::string field;
    std::istringstream cells(line);
    while (std::getline(cells, field, ',')) fields.push_back(std::string(trim(field)));
    if (fields.size() != 4) continue;
    for (auto& f : fields)
      if (f == "[N/A]" || f == "N/A" || f == "[Not Supported]") f.clear();
    HostGpu gpu;
    gpu.name = fields[0];
    if (auto v = parse_driver_version(fields[1]))
      gpu.driver_version = v->to_string();
    else
      continue;  // not a data line (an error message with commas)
    gpu.driver_model = parse_model(fields[2]);
    try {
      if (!fields[3].empty()) gpu.memory_mib = std::stoull(fields[3]);
    } catch (const std::exception&) {
    }
    gpu.source = "nvidia-smi";
    gpus.push_back(gpu);
  }
  return gpus;
}

HostFacts gather_host_facts(const SystemInfo& system, const Registry& registry, ProcessRunner& runner,
                            const HostProbeSettings& settings) {
  HostFacts facts;
  facts.is_windows = system.is_windows;
  if (!system.is_windows) return facts;
  // The registry's CurrentBuild is what winver and Settings show and no compatibility shim rewrites
  // it; RtlGetVersion (system.build) is the fallback when the key cannot be read. (Wine's
  // RtlGetVersion reports the version it emulates, 10.0.18362 for "win10"; the tests seed the key.)
  for (const char* name : {"CurrentBuild", "CurrentBuildNumber"}) {
    if (facts.windows_build) break;
    if (auto b = registry.read_string(reg::k_current_version, name)) {
      int build = 0;
      auto [end, ec] = std::from_chars(b->data(), b->data() + b->size(), build);
      if (ec == std::errc() && end == b->data() + b->size() && build > 0) facts.windows_build = build;
    }
  }
  if (!facts.windows_build) facts.windows_build = system.build;
  if (auto ubr = registry.read_dword(reg::k_current_version, "UBR")) facts.windows_ubr = static_cast<int>(*ubr);
  facts.windows_product = registry.read_string(reg::k_current_version, "ProductName").value_or("");
  facts.ram_bytes = system.ram_bytes;
  facts.firmware_virtualization = system.firmware_virtualization;
  facts.vm_platform = registry.key_exists(reg::k_vmcompute);

  // The driver: nvidia-smi.exe knows the driver model and memory; the registry only the version.
  for (const auto& exe : settings.nvidia_smi) {
    ProcessRequest request;
    request.argv = nvidia_smi_query_argv(exe);
    request.timeout = settings.timeout;
    auto outcome = runner.run(request);
    if (!outcome) continue;  // not there: the next candidate
    if (outcome->timed_out) {
      facts.notes.push_back(exe + " did not answer within " + std::to_string(settings.timeout.count() / 1000) + " s");
      break;
    }
    facts.gpus = parse_nvidia_smi_query(outcome->out);
    if (facts.gpus.empty()) {
      facts.notes.push_back(exe + " exited " + std::to_string(outcome->exit_code) +
                            " without GPU lines: " + std::string(trim(outcome->out + outcome->err).substr(0, 200)));
    }
    break;
  }
  if (facts.gpus.empty()) {
    facts.gpus = gpus_from_display_class(registry, facts.notes);
    if (facts.gpus.empty()) {
      if (auto v = registry.read_string(reg::k_nvidia_uninstall, "DisplayVersion")) {
        HostGpu gpu;
        gpu.name = "NVIDIA GPU";
        gpu.source = "registry (uninstall key)";
        if (auto parsed = parse_driver_version(*v)) gpu.driver_version = parsed->to_string();
        facts.gpus.push_back(gpu);
      }
    }
    if (facts.gpus.empty()) facts.notes.push_back("no NVIDIA driver found by nvidia-smi.exe or in the registry");
  }
  facts.tdr_delay_s = registry.read_dword(reg::k_graphics_drivers, "TdrDelay");
  facts.tdr_level = registry.read_dword(reg::k_graphics_drivers, "TdrLevel");
  if (auto hiberboot = registry.read_dword(reg::k_power, "HiberbootEnabled")) facts.fast_startup = *hiberboot != 0;
  if (auto v = registry.read_dword(reg::k_lxss, "DefaultVersion")) facts.wsl_default_version = static_cast<int>(*v);
  facts.wsl_policies = read_wsl_policies(registry);
  return facts;
}

std::map<std::string, std::uint32_t> read_wsl_policies(const Registry& registry) {
  std::map<std::string, std::uint32_t> policies;
  for (const char* name : k_wsl_policy_values)
    if (auto v = registry.read_dword(reg::k_wsl_policies, name)) policies[name] = *v;
  return policies;
}

}  // namespace tfwsl::host
