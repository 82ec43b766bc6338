#pragma once
// The judge: the distro's facts (what the agent's probes observed, common/agent_api/linux_facts.hpp)
// and one policy (check_policy.hpp, from the profile the user named) -> the Linux-side verdicts of
// common/check. Pure, so `tfwsl doctor` (facts from /v1/facts), `tfwsl-agent check` (facts from
// its own probes) and the agent's /v1/checks convenience all say the same thing for the same facts.
//
// The checks it gives are the rows of CheckSource::agent in the check table
// (common/check/check_table.hpp), in its order; tests/unit/check pins that.

#include <cstdint>
#include <optional>
#include <string>

#include "common/agent_api/linux_facts.hpp"
#include "common/check/check.hpp"
#include "common/judge/check_policy.hpp"

namespace tfwsl::judge {

// What only the Windows side knows of the VM's memory. The doctor on Windows passes it, and
// mem.effective then says whether .wslconfig's memory= is in effect; the agent and the native doctor
// do not (the distro cannot see .wslconfig), and mem.effective says what the VM has.
struct WindowsMemory {
  std::optional<std::uint64_t> configured_bytes;  // .wslconfig's memory=; none: WSL's default
  std::optional<std::uint64_t> host_ram_bytes;
  std::string wslconfig_path;
};

Report assess(const agent_api::LinuxFacts& facts, const CheckPolicy& policy,
              const std::optional<WindowsMemory>& windows_memory = std::nullopt);

// A GPU no stock TensorFlow wheel runs on (compute capability from compat.yaml's
// stock_wheels_fail_from_compute_capability on: Blackwell): gpu.compute-capability's failing verdict,
// NVIDIA's container as its fix; nothing for any other GPU. `tfwsl-agent provision` refuses to install
// the profile's pip TensorFlow with it, before any step runs.
std::optional<CheckResult> stock_wheels_cannot_run(const agent_api::LinuxFacts& facts, const CheckPolicy& policy);

}  // namespace tfwsl::judge
