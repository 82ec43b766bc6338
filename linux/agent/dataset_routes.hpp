#pragma once
// The dataset routes with the import engine as a parameter: register_dataset_routes (routes.hpp)
// passes dataset::run_import; tests pass a runner they control, so a job ends when the test says.

#include "linux/agent/agent_context.hpp"
#include "linux/agent/router.hpp"
#include "linux/dataset/job_manager.hpp"

namespace tfwsl::agent {

// Limits from context.import_limits.
void register_dataset_routes(Router& router, AgentContext& context, dataset::ImportRunner runner);

}  // namespace tfwsl::agent
