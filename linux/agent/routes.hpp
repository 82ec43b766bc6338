#pragma once
// Route registration. Each file that owns routes has one function here; the server calls them all.
//   register_core_routes     core_routes.cpp     /v1/challenge, info, facts, checks, gpu, stack, paths/resolve
//   register_dataset_routes  dataset_routes.cpp  /v1/datasets, /v1/jobs/{id}, /v1/jobs/{id}/cancel

#include "linux/agent/agent_context.hpp"
#include "linux/agent/router.hpp"

namespace tfwsl::agent {

void register_core_routes(Router& router, AgentContext& context);
void register_dataset_routes(Router& router, AgentContext& context);

// All of the above that are built in.
void register_all_routes(Router& router, AgentContext& context);

}  // namespace tfwsl::agent
