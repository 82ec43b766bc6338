#include "win/host/gpu_compute_capability.hpp"

#include <algorithm>
#include <charconv>
#include <sstream>

#include "common/util/ascii.hpp"

namespace tfwsl::host {
namespace {

// "12.0" -> {12, 0}; anything else (an empty field, "[N/A]", "12") is not a capability.
bool parse_capability(std::string_view text, int& major, int& minor) {
  const auto dot = text.find('.');
  if (dot == std::string_view::npos || dot == 0 || dot + 1 == text.size()) return false;
  auto [end_major, ec_major] = std::from_chars(text.data(), text.data() + dot, major);
  auto [end_minor, ec_minor] = std::from_chars(text.data() + dot + 1, text.data() + text.size(), minor);
  return ec_major == std::errc() && end_major == text.data() + dot && ec_minor == std::errc() &&
         end_minor == text.data() + text.size();
}

std::string first_line(const std::string& text) {
  const std::string_view trimmed = trim(text);
  return std::string(trimmed.substr(0, std::min<std::size_t>(trimmed.find('\n'), 200)));
}

}  // namespace

std::vector<std::string> nvidia_smi_compute_cap_argv(const std::string& exe) {
  return {exe, "--query-gpu=name,compute_cap", "--format=csv,noheader"};
}

std::optional<std::vector<GpuComputeCapability>> parse_compute_cap_query(const std::string& csv) {
  std::vector<GpuComputeCapability> gpus;
  std::istringstream in(csv);
  std::string line;
  while (std::getline(in, line)) {
    if (trim(line).empty()) continue;
    // The name may hold a comma; the capability is the last field.
    const auto comma = line.rfind(',');
    if (comma == std::string::npos) return std::nullopt;
    GpuComputeCapability gpu;
    gpu.name = std::string(trim(std::string_view(line).substr(0, comma)));
    if (gpu.name.empty() || !parse_capability(trim(std::string_view(line).substr(comma + 1)), gpu.major, gpu.minor))
      return std::nullopt;
    gpus.push_back(std::move(gpu));
  }
  if (gpus.empty()) return std::nullopt;
  return gpus;
}

GpuReading read_gpu_compute_capabilities(ProcessRunner& runner, const std::vector<std::string>& candidates,
                                         std::chrono::milliseconds timeout) {
  GpuReading reading;
  reading.not_checked = "nvidia-smi was not found";
  for (const auto& exe : candidates) {
    ProcessRequest request;
    request.argv = nvidia_smi_compute_cap_argv(exe);
    request.timeout = timeout;
    auto outcome = runner.run(request);
    if (!outcome) continue;  // not there: the next candidate
    reading.source = exe;
    if (outcome->timed_out) {
      reading.not_checked = exe + " did not answer within " + std::to_string(timeout.count() / 1000) + " s";
      return reading;
    }
    auto gpus = outcome->exit_code == 0 ? parse_compute_cap_query(outcome->out) : std::nullopt;
    if (!gpus) {
      reading.not_checked = exe + " exited " + std::to_string(outcome->exit_code) +
                            " without a compute capability per GPU" +
                            " (a driver older than the compute_cap field?): " + first_line(outcome->out + outcome->err);
      return reading;
    }
    reading.checked = true;
    reading.not_checked.clear();
    reading.gpus = std::move(*gpus);
    return reading;
  }
  return reading;
}

}  // namespace tfwsl::host
