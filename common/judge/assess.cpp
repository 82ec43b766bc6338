#include "common/judge/assess.hpp"

#include <array>
#include <string_view>

#include "common/judge/judge_table.hpp"

namespace tfwsl::judge {
namespace {

// What a venv holds: on the container route the image holds it instead, checked by container.*.
// (cuda.toolkit judges the route itself: NVIDIA's repository in apt breaks every route's updates.)
bool judged_in_the_image(std::string_view id) {
  static constexpr std::array<std::string_view, 5> k_ids = {"python.version", "cudnn", "tf.installed", "tf.build",
                                                            "tf.gpu"};
  for (auto k : k_ids)
    if (k == id) return true;
  return false;
}

}  // namespace

// Each distro check's judge and values, in the check table's order (judge_table.hpp).
Report assess(const agent_api::LinuxFacts& f, const CheckPolicy& p,
              const std::optional<WindowsMemory>& windows_memory) {
  const JudgeInput in{f, p, windows_memory};
  Report r;
  for (const CheckJudge& judge : check_judges()) {
    if (p.container_route && judged_in_the_image(judge.id)) {
      CheckResult skipped;
      skipped.id = std::string(judge.id);
      skipped.status = CheckStatus::skip;
      skipped.summary = "the container route: the image brings it (the container.* checks)";
      r.checks.push_back(std::move(skipped));
      continue;
    }
    CheckResult result = judge.verdict(in);
    if (judge.values) result.values = judge.values(in);
    r.checks.push_back(std::move(result));
  }
  return r;
}

}  // namespace tfwsl::judge
