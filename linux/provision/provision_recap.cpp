#include <fmt/format.h>

#include "linux/provision/provision_executor.hpp"

namespace tfwsl::provision {

std::string render_recap(const ProvisionRecap& recap) {
  std::string out;
  if (recap.interrupted_step)
    out += fmt::format("The previous run was interrupted during {}; resuming (every step checks before it applies).\n",
                       *recap.interrupted_step);
  for (const auto& s : recap.steps) {
    out += fmt::format("{:<8} {:<20} {}\n", to_string(s.result), s.id, s.message);
    if (!s.log.empty() && s.result == StepResult::failed) out += fmt::format("         log: {}\n", s.log);
  }
  out += fmt::format("recap: ok={} changed={} failed={} skipped={}{}\n", recap.count(StepResult::ok),
                     recap.count(StepResult::changed), recap.count(StepResult::failed),
                     recap.count(StepResult::skipped), recap.check_mode ? " (check mode: nothing was changed)" : "");
  out += fmt::format("logs: {}/logs (processes started: {}/processes.jsonl)\n", recap.state_dir, recap.state_dir);
  return out;
}

}  // namespace tfwsl::provision
