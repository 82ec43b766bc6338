#pragma once
// `tfwsl data push`'s second half: the job started on an agent whose only roots are the source and
// the target's root, followed until it ends (progress to env.progress), cancelled through the API
// when env.interrupted() turns true (the job stops cleanly: what is finished stays in the target,
// and the same push again resumes from it).

#include <optional>
#include <string>

#include "win/push/push_plan.hpp"

namespace tfwsl::push {

enum class PushEnd { refused, planned, succeeded, with_problems, failed, interrupted };
const char* to_string(PushEnd end);  // "refused", "planned", "succeeded", "succeeded-with-problems", ...

struct PushOutcome {
  PushEnd end = PushEnd::failed;
  PushPlan plan;
  std::optional<Error> error;
  std::optional<JobState> job;  // the last state seen
  std::string note;             // e.g. why the cancel could not be confirmed

  int exit_code() const;  // 0 succeeded/planned, 1 with problems, 2 refused/failed, 130 interrupted
};

PushOutcome execute_push(PushEnvironment& env, const PushRequest& request, PushPlan plan);

}  // namespace tfwsl::push
