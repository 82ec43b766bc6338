// POST /v1/datasets, GET /v1/jobs/{id}, POST /v1/jobs/{id}/cancel: dataset imports as background
// jobs (linux/dataset/job_manager.hpp) over the copy engine (linux/dataset/import_engine.hpp),
// within the agent's job limits (context.import_limits; past them: 429 with Retry-After).
#include "linux/agent/dataset_routes.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <memory>

#include "common/agent_api/api_types.hpp"
#include "linux/agent/import_request.hpp"
#include "linux/agent/routes.hpp"
#include "linux/dataset/import_engine.hpp"
#include "linux/dataset/job_manager.hpp"

namespace tfwsl::agent {

using agent_api::ApiError;

namespace {

struct DatasetJobs {
  DatasetJobs(dataset::ImportRunner runner, const dataset::JobLimits& limits)
      : manager(clock, std::move(runner), limits) {}
  SteadyClock clock;
  dataset::ImportJobManager manager;
};

ApiError api_error_for(ErrorCode code) {
  switch (code) {
    case ErrorCode::invalid_input:
      return ApiError::invalid_input;
    case ErrorCode::conflict:
      return ApiError::conflict;
    case ErrorCode::not_found:
      return ApiError::not_found;
    case ErrorCode::busy:
      return ApiError::too_many_requests;
    default:
      return ApiError::unprocessable;
  }
}

ApiResponse refusal(const Error& error, const dataset::JobLimits& limits) {
  auto response = error_response(api_error_for(error.code), error.message);
  if (error.code == ErrorCode::busy) {  // RFC 9110 10.2.3; the body says it too, for the stdio channel
    response.headers["Retry-After"] = std::to_string(limits.retry_after_seconds);
    response.body["error"]["retry_after_seconds"] = limits.retry_after_seconds;
  }
  return response;
}

// Another process (a `tfwsl-agent dataset import` in a shell) may hold the target's lock: answer
// 409 now rather than start a job that fails at once. The job takes the lock itself anyway.
// The probe follows no link (the state folder and the lock alike), opens nothing but a regular file
// and never blocks: what is not a plain lock is left for the job, which refuses it by name.
bool target_locked_elsewhere(const std::filesystem::path& target) {
  auto state_path = target / std::string(dataset::k_state_dir_name);
  int dir_fd = ::open(state_path.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (dir_fd < 0) return false;
  int fd = ::openat(dir_fd, "lock", O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  ::close(dir_fd);
  if (fd < 0) return false;
  struct stat st {};
  bool busy =
      ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && ::flock(fd, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK;
  ::close(fd);  // releases the probe's lock, if it got it
  return busy;
}

ApiResponse start_import(DatasetJobs& jobs, const AgentContext& context, const ApiRequest& request) {
  const auto& limits = jobs.manager.limits();
  auto parsed = parse_import_request(request.body, context.roots);
  if (!parsed) return refusal(parsed.error(), limits);
  if (target_locked_elsewhere(parsed->options.target))
    return error_response(
        ApiError::conflict,
        fmt::format("another import into '{}' is running (another process holds its lock)", parsed->target_given));
  auto id =
      jobs.manager.start({std::move(parsed->options), parsed->target_key, parsed->source_given, parsed->target_given});
  if (!id) return refusal(id.error(), limits);
  // With keep_finished 0 a job that ended at once is already forgotten: the id is all there is.
  auto status = jobs.manager.status(*id).value_or(nlohmann::json{{"id", *id}});
  status["location"] = std::string(agent_api::route::k_jobs) + *id;
  return {202, status};
}

ApiResponse job_status(DatasetJobs& jobs, const ApiRequest& request) {
  const auto& id = request.params.at("id");
  auto status = jobs.manager.status(id);
  if (!status) return error_response(ApiError::not_found, jobs.manager.unknown_job_message(id));
  return ok(*status);
}

ApiResponse cancel_job(DatasetJobs& jobs, const ApiRequest& request) {
  const auto& id = request.params.at("id");
  auto cancelled = jobs.manager.cancel(id);
  if (!cancelled) return error_response(ApiError::not_found, cancelled.error().message);
  return {202, jobs.manager.status(id).value_or(nlohmann::json{{"id", id}})};
}

}  // namespace

void register_dataset_routes(Router& router, AgentContext& context) {
  register_dataset_routes(router, context, dataset::run_import);
}

void register_dataset_routes(Router& router, AgentContext& context, dataset::ImportRunner runner) {
  // Owned by the routes' handlers: lives as long as the router; its destructor cancels and joins.
  auto jobs = std::make_shared<DatasetJobs>(std::move(runner), context.import_limits);
  const AgentContext* c = &context;
  router.add({"POST",
              agent_api::route::k_datasets,
              {"source", "target", "mode", "verify", "jobs", "exclude"},
              [jobs, c](const ApiRequest& r) { return start_import(*jobs, *c, r); }});
  router.add({"GET", std::string(agent_api::route::k_jobs) + "{id}", {}, [jobs](const ApiRequest& r) {
                return job_status(*jobs, r);
              }});
  router.add({"POST", std::string(agent_api::route::k_jobs) + "{id}/cancel", {}, [jobs](const ApiRequest& r) {
                return cancel_job(*jobs, r);
              }});
}

}  // namespace tfwsl::agent
