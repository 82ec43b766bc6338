#pragma once
// One root cause, not a screen of echoes: a check whose prerequisite failed is folded under the
// failing check it traces back to (its root cause), so the report counts faults, not their echoes.
// The prerequisites come from the check table (check_table.hpp); a precondition is a
// fact that is not a check ("platform.windows"), which folds only what could not run without it.

#include <string>
#include <vector>

#include "common/check/check.hpp"

namespace tfwsl {

// `id` needs every one of `needs` (check ids or precondition ids) to be judged on its own.
struct CheckDependency {
  std::string id;
  std::vector<std::string> needs;
};
using DependencyTable = std::vector<CheckDependency>;

// Sets CheckResult::blocked_by on every check that is not ok and has a prerequisite that
//  - failed (fail), or is itself folded: it folds under that prerequisite's root cause;
//  - is an unmet precondition: it folds under the precondition, but only when it is a skip (a
//    check that failed on its own stays its own issue).
// A warn or a plain skip prerequisite does not fold: a warning does not stop what depends on it,
// and a skip that is not itself folded ("no system cuDNN") is not a fault. Prerequisites absent
// from the report (wsl.agent in `tfwsl-agent check`) are ignored. Every folded check thus hangs
// under a failing root or an unmet precondition, so the exit code computed from the root causes is
// the one computed from all checks. Unmet preconditions are kept in report.unmet for rendering.
void fold_report(Report& report, const DependencyTable& table, const std::vector<Precondition>& preconditions = {});

// The checks that are issues on their own (warn/fail, not folded), in dependency order: a root
// that others depend on (by the table) before those, then report order. The first is "fix first".
std::vector<const CheckResult*> root_causes(const Report& report);

}  // namespace tfwsl
