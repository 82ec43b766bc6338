#include "win/profile/profile_export.hpp"

#include <algorithm>

#include "common/profile/profile_loader.hpp"
#include "common/profile/profile_source.hpp"
#include "common/units/size_parser.hpp"
#include "common/version/driver_version.hpp"
#include "common/version/version.hpp"
#include "common/version/version_spec.hpp"
#include "common/wslconfig/wslconfig_document.hpp"

namespace tfwsl {
namespace {

template <class T>
void set(Setting<T>& setting, T value) {
  setting.value = std::move(value);
  setting.where = SourceLocation{k_machine_source, 0, 0};
}

// "3.10.12" -> "3.10"; nothing when it is not a version.
std::optional<std::string> minor_series(const std::string& text) {
  auto v = Version::parse(text);
  if (!v || v->release.size() < 2) return std::nullopt;
  return v->truncated(2).to_string();
}

void export_wslconfig(const ProfileHostFacts& host, Profile& p) {
  if (!host.wslconfig_bytes) return;
  const auto doc = wslconfig::Document::parse(*host.wslconfig_bytes);
  if (auto memory = doc.get("wsl2", "memory")) {
    if (auto bytes = parse_wsl_size(*memory)) set(p.wsl_memory, *bytes);
  }
  if (auto swap = doc.get("wsl2", "swap")) {
    if (auto bytes = parse_wsl_size(*swap)) set(p.wsl_swap, *bytes);
  }
  if (auto processors = doc.get("wsl2", "processors")) {
    try {
      const int n = std::stoi(*processors);
      if (n >= 1 && n <= 1024 && std::to_string(n) == *processors) set(p.wsl_processors, n);
    } catch (const std::exception&) {  // not a number: WSL ignores it, and so does the export
    }
  }
}

// The newest CUDA toolkit of the distro, as its x.y series.
std::optional<std::string> newest_toolkit(const agent_api::LinuxFacts& f) {
  std::optional<Version> best;
  for (const auto& t : f.stack.toolkits) {
    auto v = Version::parse(t.version);
    if (v && (!best || *best < *v)) best = *v;
  }
  if (!best) return std::nullopt;
  return best->truncated(2).to_string();
}

// The extras of the built-in profile whose TensorFlow specifier allows the installed release
// ("[and-cuda]" for 2.15.1): the machine does not show which extras pip installed, and a profile
// without them would provision a TensorFlow without its CUDA wheels.
std::optional<std::vector<std::string>> builtin_extras_for(const Version& installed) {
  for (const auto& name : shipped_profile_names()) {
    auto builtin = load_valid_profile(name);
    if (!builtin || !builtin->tensorflow_version.value || !builtin->tensorflow_extras.value) continue;
    auto spec = VersionSpec::parse(*builtin->tensorflow_version.value);
    if (spec && spec->allows(installed)) return *builtin->tensorflow_extras.value;
  }
  return std::nullopt;
}

void export_linux(const agent_api::LinuxFacts& f, Profile& p) {
  if (auto toolkit = newest_toolkit(f)) set(p.cuda_toolkit, *toolkit);
  if (f.stack.cudnn_found && f.stack.cudnn_version) set(p.cuda_cudnn, cudnn_series(*f.stack.cudnn_version));
  if (auto python = minor_series(f.stack.python_version)) set(p.python_version, *python);
  if (!f.tf.installed) return;
  auto installed = Version::parse(f.tf.version);
  if (!installed) return;
  set(p.tensorflow_version, "==" + f.tf.version);
  if (auto extras = builtin_extras_for(*installed)) set(p.tensorflow_extras, *extras);
}

}  // namespace

Profile profile_from_machine(const ProfileMachineFacts& machine, const std::string& name) {
  Profile p;
  set(p.name, name);
  if (!machine.host.distro.empty()) set(p.distro, machine.host.distro);
  export_wslconfig(machine.host, p);
  const std::string driver = machine_gpu_driver(machine);
  if (auto parsed = parse_driver_version(driver)) set(p.gpu_driver, parsed->to_string());
  if (machine.linux) export_linux(*machine.linux, p);
  p.sources.push_back(k_machine_source);
  return p;
}

}  // namespace tfwsl
