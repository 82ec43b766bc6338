#include <sstream>
#include <string>
#include <utility>

#include "common/agent_api/api_types.hpp"
#include "common/util/ascii.hpp"
#include "linux/checks/file_text.hpp"
#include "linux/checks/library_probe_child.hpp"
#include "linux/checks/probes.hpp"

namespace tfwsl::linux_checks {

namespace {

void probe_nvidia_smi(const ProbeEnvironment& env, agent_api::GpuResponse& g) {
  for (const std::string& program : {std::string("nvidia-smi"), env.at("/usr/lib/wsl/lib/nvidia-smi").string()}) {
    ProcessRequest request;
    request.argv = {program, "--query-gpu=driver_version,name", "--format=csv,noheader"};
    request.timeout = env.probe_timeout;
    auto outcome = env.runner->run(request);
    if (!outcome) continue;  // not installed here: try the next place
    bool late = outcome->timed_out;
    if (late || (outcome->exit_code != 0 && outcome->out.empty())) {
      g.nvml_error +=
          "; " + program + (late ? " timed out" : " failed: " + std::string(trim(outcome->out + outcome->err)));
      return;
    }
    std::istringstream in(outcome->out);
    std::string line;
    while (std::getline(in, line)) {
      auto comma = line.find(',');
      if (comma == std::string::npos) continue;
      g.nvml_driver_version = trim(line.substr(0, comma));
      g.nvml_device_names.emplace_back(trim(line.substr(comma + 1)));
    }
    if (!g.nvml_driver_version.empty()) {
      g.nvml_source = "nvidia-smi";
      g.nvml_error.clear();
    }
    return;
  }
  g.nvml_error += "; nvidia-smi not found";
}

}  // namespace

agent_api::GpuResponse probe_gpu(const ProbeEnvironment& env) {
  agent_api::GpuResponse g;
  // libcuda and NVML in the library child: a hung cuInit is killed there at the limit.
  auto answer = run_library_probe(env, LibraryPart::gpu);
  auto parsed = answer ? agent_api::parse_gpu(*answer) : Result<agent_api::GpuResponse>(tl::unexpected(answer.error()));
  if (parsed) {
    g = std::move(*parsed);
  } else {
    g.libcuda_error = g.nvml_error =
        parsed.error().message + (parsed.error().detail.empty() ? "" : ": " + parsed.error().detail);
  }
  if (g.nvml_driver_version.empty()) probe_nvidia_smi(env, g);
  return g;
}

}  // namespace tfwsl::linux_checks
