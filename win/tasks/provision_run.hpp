#pragma once
// Running `tfwsl provision`'s steps (check or apply) for a plan, as one recap: the host steps on
// Windows (provision_host.hpp), then the distro half, which tfwsl-agent runs as root in the distro
// (a child on the native Linux build). `tfwsl provision` prints the recap; `tfwsl migrate` runs the
// check first and applies only when a step would change.

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "common/agent_api/provision_recap.hpp"
#include "common/core/error.hpp"
#include "common/provision/progress_event.hpp"
#include "common/provision/provision_plan.hpp"
#include "win/tasks/machine.hpp"

namespace tfwsl::cli {

struct ProvisionRunRequest {
  std::string profile;  // a built-in name or a YAML file (a Windows path on Windows)
  bool check = false;   // check every step, change nothing
  std::string user;     // the venv's owner; empty: the distro's default user
  std::string agent;    // --agent on native Linux
  // KEY=VALUE over the profile (tfwsl-agent provision --set): migrate's distro choice, which sets the
  // distro and its Python over a shipped profile's.
  std::vector<std::string> overrides = {};
  // The agent's progress while the distro half runs (it is asked for --progress-json); may be empty.
  std::function<void(const provision::ProgressEvent&)> progress;
};

// The recap (docs/schema/provision.schema.json "recap"): host_steps, steps, counts; "error" when
// the distro half gave no recap.
nlohmann::json run_provision_steps(const ProvisionRunRequest& request, const provision::ProvisionPlan& plan,
                                   Machine& machine);

// tfwsl-agent provision's JSON answer: its recap, or an error with its exit status, its stderr and
// where its step logs are (`in_distro`: it ran in the distro through wsl.exe, not on this machine).
Result<nlohmann::json> recap_from_agent_answer(const std::string& out, const std::string& err, long long code,
                                               bool in_distro);

// The merged recap's counts (host and distro steps), typed; unreadable counts are one failure.
agent_api::RecapCounts recap_counts(const nlohmann::json& recap);

// 2 a step failed, 1 --check found steps to change, 0 otherwise.
int provision_exit_code(const nlohmann::json& recap, bool check);

// The distro half's argv for tfwsl-agent: the profile comes on its stdin (`--profile -`), as
// sent_profile makes it.
std::vector<std::string> agent_provision_args(const ProvisionRunRequest& request, bool windows);

// The profile the agent plans from: the one this side loaded (a built-in name or a file here,
// extends and the request's overrides applied), as YAML. The agent reads no file of the user's and
// builds no second merge.
Result<std::string> sent_profile(const ProvisionRunRequest& request);

// tfwsl-agent's path inside the distro: TFWSL_AGENT_PATH, else where `tfwsl agent start` installs it.
std::string distro_agent_path();

// Every distro step of `plan` as a skipped recap row, "not checked: <reason>": the recap when the
// distro half gave none (it could not run, or a host step failed first).
nlohmann::json unchecked_distro_steps(const provision::ProvisionPlan& plan, const std::string& reason);

}  // namespace tfwsl::cli
