#include "linux/checks/library_probe_child.hpp"

#include <string>

#include "common/process/process_runner.hpp"
#include "common/util/ascii.hpp"
#include "linux/checks/probes.hpp"

namespace tfwsl::linux_checks {

Result<nlohmann::json> run_library_probe(const ProbeEnvironment& env, LibraryPart part) {
  ProcessRequest request;
  request.argv = {env.library_prober.string(), "probe-libraries", library_part_name(part), "--root", env.root.string()};
  request.timeout = env.probe_timeout;
  const std::string what = std::string("the ") + library_part_name(part) + " library probe";
  auto outcome = env.runner->run(request);
  if (!outcome) return make_error(outcome.error().code, what + " could not start", outcome.error().message);
  if (outcome->timed_out)
    throw ProbeTimedOut(what + " ran past " + std::to_string(env.probe_timeout.count()) + " ms and was stopped");
  if (outcome->exit_code != 0)
    return make_error(ErrorCode::process, what + " exited with status " + std::to_string(outcome->exit_code),
                      std::string(trim(outcome->err)).substr(0, 400));
  auto answer = nlohmann::json::parse(outcome->out, nullptr, false);
  if (answer.is_discarded() || !answer.is_object())
    return make_error(ErrorCode::process, what + " printed no JSON object",
                      std::string(trim(outcome->out)).substr(0, 200));
  return answer;
}

}  // namespace tfwsl::linux_checks
