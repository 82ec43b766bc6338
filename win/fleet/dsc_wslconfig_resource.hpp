#pragma once
// The DSC v3 resource Tfwsl/WslConfig (docs/fleet.md): the [wsl2] keys `tfwsl wslconfig set`
// knows (memory, processors, swap, ...) and the [experimental] ones under "experimental", in the
// file "file" (default: the user's .wslconfig). get reads the file; test asks `wslconfig set
// --dry-run` whether writing the desired values would change a byte; set writes them through the
// same editor (backup, lock, encoding kept) and, with "restart": true, applies them (--apply).
// Those commands judge the file for the resource: without "file", run as SYSTEM or as a service
// account WSL never ran for, they refuse (win/tasks/wslconfig_account.hpp: that account's own
// .wslconfig is no user's); with one, a privileged run never follows a link in another account's
// folder (common/util/privileged_target.hpp).

#include <nlohmann/json.hpp>
#include <vector>

#include "common/core/error.hpp"
#include "win/fleet/tfwsl_invoker.hpp"

namespace tfwsl::cli::dsc {

inline constexpr const char* k_wslconfig_type = "Tfwsl/WslConfig";

// The instance's JSON schema (draft 2020-12), generated from common/wslconfig's table of keys.
nlohmann::json wslconfig_instance_schema();

// The actual state: "file" and every known key the file sets, typed as the schema says.
Result<nlohmann::json> wslconfig_get(const nlohmann::json& desired, TfwslInvoker& tfwsl);

struct TestOutcome {
  nlohmann::json state;                // the actual state with "_inDesiredState"
  std::vector<std::string> differing;  // the desired properties the file does not hold
};
Result<TestOutcome> wslconfig_test(const nlohmann::json& desired, TfwslInvoker& tfwsl);

// Writes only when test says the file differs; returns the state afterwards.
Result<nlohmann::json> wslconfig_set(const nlohmann::json& desired, TfwslInvoker& tfwsl);

// `dsc config export`: the one instance this machine has, the .wslconfig's keys as get reads them
// (of `file` when the filter names one, else the user's).
Result<std::vector<nlohmann::json>> wslconfig_export(const nlohmann::json& filter, TfwslInvoker& tfwsl);

}  // namespace tfwsl::cli::dsc
