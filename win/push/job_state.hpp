#pragma once
// A dataset job as the agent answers it (GET /v1/jobs/<id>, docs/datasets.md "Agent API"): the job
// wire's types (common/agent_api/job_wire), named here for the push client.

#include "common/agent_api/job_wire.hpp"

namespace tfwsl::push {

using agent_api::JobProgress;
using agent_api::JobState;
using agent_api::JobStatus;
using agent_api::parse_job_progress;
using agent_api::parse_job_state;

}  // namespace tfwsl::push
