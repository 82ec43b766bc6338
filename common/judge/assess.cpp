#include "common/judge/assess.hpp"

#include "common/judge/judge_table.hpp"

namespace tfwsl::judge {

// Each distro check's judge and values, in the check table's order (judge_table.hpp).
Report assess(const agent_api::LinuxFacts& f, const CheckPolicy& p,
              const std::optional<WindowsMemory>& windows_memory) {
  const JudgeInput in{f, p, windows_memory};
  Report r;
  for (const CheckJudge& judge : check_judges()) {
    CheckResult result = judge.verdict(in);
    if (judge.values) result.values = judge.values(in);
    r.checks.push_back(std::move(result));
  }
  return r;
}

}  // namespace tfwsl::judge
