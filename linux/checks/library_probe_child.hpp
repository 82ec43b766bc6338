#pragma once
// The agent's side of the library child (library_probes.hpp): runs `<library_prober>
// probe-libraries PART --root ROOT` through the process port, killed at env.probe_timeout, and
// parses the JSON it prints.

#include <nlohmann/json.hpp>

#include "common/core/error.hpp"
#include "linux/checks/library_probes.hpp"
#include "linux/checks/probe_environment.hpp"

namespace tfwsl::linux_checks {

// The child's answer, or why there is none (it could not start, failed, printed no JSON object).
// A child killed at its limit throws ProbeTimedOut (probes.hpp): as when a driver call hung in the
// agent itself, the probe is reported as past its limit.
Result<nlohmann::json> run_library_probe(const ProbeEnvironment& env, LibraryPart part);

}  // namespace tfwsl::linux_checks
