#pragma once
// The Linux-side probes: they observe and never judge. gather_facts runs every probe (in parallel,
// each with a time limit) and returns the facts of common/agent_api/linux_facts.hpp, which the
// agent serves as /v1/facts. The verdicts are the judge's (common/judge/assess.hpp), under the
// policy the user named: `tfwsl doctor` judges /v1/facts itself, `tfwsl-agent check` judges
// gather_facts' result locally.

#include <memory>

#include "linux/checks/linux_facts.hpp"
#include "linux/checks/probe_environment.hpp"

namespace tfwsl::linux_checks {

// Runs every probe in parallel, each on a thread joined before it returns: every probe is bounded
// (its children are killed at their limits, the libraries are loaded in a child). A probe past its
// limit is reported in facts.timed_out and its part stays at "absent".
LinuxFacts gather_facts(const ProbeEnvironment& env);

// The variable naming a probe root: a folder holding another machine's files (dev/dxg,
// usr/lib/wsl/lib, proc/..., etc/...) that the agent then observes instead of this one's.
inline constexpr const char* k_probe_root_env = "TFWSL_PROBE_ROOT";

// A production environment: root "/", the machine's process runner (`processes`), this program as the
// library child; under TFWSL_PROBE_ROOT when set: that root (the child loads libraries on its loader
// path) and its disk.
ProbeEnvironment system_probe_environment(std::shared_ptr<ProcessRunner> processes);

}  // namespace tfwsl::linux_checks
