#include "win/migrate/gpu_check.hpp"

#include <fmt/format.h>

#include "common/agent_api/linux_facts.hpp"
#include "common/judge/assess.hpp"
#include "common/judge/check_policy.hpp"

namespace tfwsl::migrate {

GpuCheck check_gpu(const host::GpuReading& reading, const std::optional<ShippedProfile>& target) {
  GpuCheck check;
  check.reading = reading;
  if (!reading.checked || !target) return check;
  // The policy provision judges by (the target profile's); a shipped profile that does not load is
  // a build defect the profile tests catch, and the GPU is then said unjudged rather than guessed.
  auto policy = judge::check_policy_for_profile(target->name);
  if (!policy) return check;
  agent_api::LinuxFacts facts;
  for (const auto& gpu : reading.gpus) {
    agent_api::GpuDevice device;
    device.index = static_cast<int>(facts.gpu.devices.size());
    device.name = gpu.name;
    device.cc_major = gpu.major;
    device.cc_minor = gpu.minor;
    facts.gpu.devices.push_back(std::move(device));
  }
  check.judged = true;
  if (auto refused = judge::stock_wheels_cannot_run(facts, *policy)) {
    check.summary = refused->summary;
    check.fix = refused->fix;
  }
  return check;
}

std::string gpu_problem(const GpuCheck& check) {
  if (!check.refused()) return {};
  return fmt::format("refused, nothing was changed: {}; {}", *check.summary, *check.fix);
}

}  // namespace tfwsl::migrate
