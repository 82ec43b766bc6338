#pragma once
// The probes' facts are the API's LinuxFacts (common/agent_api/linux_facts.hpp, defined there once):
// these names let the probes say what they fill. /v1/stack serves a part of them in its own shape.

#include <nlohmann/json.hpp>

#include "common/agent_api/linux_facts.hpp"

namespace tfwsl::linux_checks {

using agent_api::CudaToolkit;
using agent_api::DriverFacts;
using agent_api::LinuxFacts;
using agent_api::StackFacts;
using agent_api::SystemFacts;
using agent_api::TfFacts;
using agent_api::WslFacts;

nlohmann::json stack_to_json(const StackFacts& stack, const DriverFacts& driver, const TfFacts& tf);

}  // namespace tfwsl::linux_checks
