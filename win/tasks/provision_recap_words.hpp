#pragma once
// A provision recap (run_provision_steps, docs/schema/provision.schema.json "recap") in the words of
// another command's messages: `tfwsl migrate` provisions first and, when that stops, says which
// steps stopped it and where their logs are, in the one message it prints.

#include <nlohmann/json.hpp>
#include <string>

#include "common/core/error.hpp"

namespace tfwsl::cli {

// The recap's rows whose result is `result` ("failed", "changed"), "id: message" each, joined by
// "; "; a failed row names its log, and the recap's own error (no distro recap) comes last.
std::string recap_rows(const nlohmann::json& recap, const std::string& result);

// Migrate's provisioning stopped by failed steps: after the check (`checked`: nothing was changed)
// or during the apply. The message names the steps, their logs and what to run next.
Error provisioning_stopped(const nlohmann::json& recap, bool checked);

}  // namespace tfwsl::cli
