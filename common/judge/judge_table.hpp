#pragma once
// The judge's column of the check table: for each row judged from the distro's facts
// (CheckSource::agent, common/check/check_rows.hpp), the function that gives its verdict and the one
// that gives its `values` (the facts its summary quotes, as fields a script reads). assess() walks
// it in the rows' order, so a distro check is added as its row, its judge here, and its test;
// tests/unit/check pins that every agent row has exactly one judge, in order.

#include <optional>
#include <span>
#include <string_view>

#include "common/agent_api/linux_facts.hpp"
#include "common/check/check.hpp"
#include "common/judge/assess.hpp"
#include "common/judge/check_policy.hpp"

namespace tfwsl::judge {

// What every judge reads: the facts, the policy, and what only Windows knows of the VM's memory.
struct JudgeInput {
  const agent_api::LinuxFacts& facts;
  const CheckPolicy& policy;
  const std::optional<WindowsMemory>& windows_memory;
};

struct CheckJudge {
  std::string_view id;  // the row's id (checked_id)
  CheckResult (*verdict)(const JudgeInput& in);
  nlohmann::json (*values)(const JudgeInput& in);  // nullptr: the verdict quotes no value
};

// In the rows' order.
std::span<const CheckJudge> check_judges();

}  // namespace tfwsl::judge
