#include "win/push/push_run.hpp"

#include <spdlog/spdlog.h>

#include <thread>

#include "common/core/exit_codes.hpp"

namespace tfwsl::push {
namespace {

void pause(PushEnvironment& env) {
  if (env.sleep)
    env.sleep(env.poll_interval);
  else
    std::this_thread::sleep_for(env.poll_interval);
}

// After a cancel: the job winds down (the batch in flight is committed); wait for its last state.
void wait_for_cancelled(PushEnvironment& env, PushAgent& agent, PushOutcome& outcome) {
  const std::string& id = outcome.job->id;
  if (auto cancelled = agent.cancel(id); !cancelled) {
    outcome.note = "the cancel was not confirmed (" + cancelled.error().message +
                   "); the agent stops the job when it exits, keeping what is finished";
    return;
  }
  const auto rounds =
      std::max<long long>(1, env.cancel_wait.count() / std::max<long long>(1, env.poll_interval.count()));
  for (long long i = 0; i < rounds; ++i) {
    auto state = agent.status(id);
    if (!state) {
      outcome.note = "the job's end was not seen (" + state.error().message + ")";
      return;
    }
    outcome.job = *state;
    env.progress(state->progress);
    if (state->finished()) return;
    pause(env);
  }
  outcome.note = "the job had not stopped after the wait; the agent stops it when it exits";
}

void follow_job(PushEnvironment& env, PushAgent& agent, PushOutcome& outcome) {
  while (true) {
    if (env.interrupted()) {
      wait_for_cancelled(env, agent, outcome);
      outcome.end = PushEnd::interrupted;
      return;
    }
    auto state = agent.status(outcome.job->id);
    if (!state) {
      outcome.error = state.error();
      outcome.error->message = "lost the agent during the push: " + state.error().message +
                               "; what was finished stays in the target, push again to continue";
      outcome.end = PushEnd::failed;
      return;
    }
    outcome.job = *state;
    env.progress(state->progress);
    if (state->finished()) return;
    pause(env);
  }
}

void judge_end(PushOutcome& outcome) {
  const auto& job = *outcome.job;
  if (job.status == JobStatus::succeeded) {
    const bool problems = job.result && !job.result->problems.empty();
    outcome.end = problems ? PushEnd::with_problems : PushEnd::succeeded;
    return;
  }
  outcome.end = PushEnd::failed;
  outcome.error =
      Error{job.status == JobStatus::cancelled ? ErrorCode::cancelled : ErrorCode::io,
            job.error_message.empty() ? std::string("the job ended ") + to_string(job.status) : job.error_message,
            job.error_code,
            {}};
}

}  // namespace

const char* to_string(PushEnd end) {
  switch (end) {
    case PushEnd::refused:
      return "refused";
    case PushEnd::planned:
      return "planned";
    case PushEnd::succeeded:
      return "succeeded";
    case PushEnd::with_problems:
      return "succeeded-with-problems";
    case PushEnd::failed:
      return "failed";
    case PushEnd::interrupted:
      return "interrupted";
  }
  return "failed";
}

int PushOutcome::exit_code() const {
  switch (end) {
    case PushEnd::planned:
    case PushEnd::succeeded:
      return exit_code::k_ok;
    case PushEnd::with_problems:
      return exit_code::k_warning;
    case PushEnd::interrupted:
      return exit_code::k_interrupted;
    default:
      return exit_code::k_failure;
  }
}

PushOutcome execute_push(PushEnvironment& env, const PushRequest& request, PushPlan plan) {
  PushOutcome outcome;
  outcome.plan = std::move(plan);
  const PushPlan& p = outcome.plan;
  auto agent = env.connect({p.source_linux, p.target_root});
  if (!agent) {
    outcome.error = agent.error();
    return outcome;
  }
  spdlog::info("push: {} -> {} through {}", p.source_linux, p.target, (*agent)->describe());
  auto started =
      (*agent)->start({p.source_linux, p.target, request.move, request.verify, request.jobs, request.exclude});
  if (!started) {
    outcome.error = started.error();
    if (started.error().code == ErrorCode::conflict)
      outcome.error->message +=
          " (another push or import into '" + p.target + "' is running: wait for it, or push elsewhere)";
    return outcome;
  }
  outcome.job = *started;
  env.progress(started->progress);
  if (!started->finished()) follow_job(env, **agent, outcome);
  if (outcome.end == PushEnd::failed && outcome.error) return outcome;
  if (outcome.end != PushEnd::interrupted) judge_end(outcome);
  return outcome;
}

}  // namespace tfwsl::push
