// POST /v1/datasets, GET /v1/jobs/{id}, POST /v1/jobs/{id}/cancel: dataset imports as background
// jobs (common/dataset/job_manager.hpp) over the copy engine (common/dataset/import_engine.hpp).
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <memory>

#include <fmt/format.h>

#include "common/agent_api/api_types.hpp"
#include "common/dataset/import_engine.hpp"
#include "common/dataset/job_manager.hpp"
#include "common/dataset/path_policy.hpp"
#include "linux/agent/routes.hpp"

namespace tfwsl::agent {

using agent_api::ApiError;

namespace {

struct DatasetJobs {
  SteadyClock clock;
  dataset::ImportJobManager manager{clock, dataset::run_import};
};

ApiError api_error_for(ErrorCode code) {
  switch (code) {
    case ErrorCode::invalid_input: return ApiError::invalid_input;
    case ErrorCode::conflict: return ApiError::conflict;
    case ErrorCode::not_found: return ApiError::not_found;
    default: return ApiError::unprocessable;
  }
}

// Another process (a `tfwsl-agent dataset import` in a shell) may hold the target's lock: answer
// 409 now rather than start a job that fails at once. The job takes the lock itself anyway.
bool target_locked_elsewhere(const std::filesystem::path& target) {
  auto lock_path = target / std::string(dataset::k_state_dir_name) / "lock";
  int fd = ::open(lock_path.c_str(), O_RDWR | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) return false;
  bool busy = ::flock(fd, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK;
  ::close(fd);  // releases the probe's lock, if it got it
  return busy;
}

ApiResponse start_import(DatasetJobs& jobs, const AgentContext& context, const ApiRequest& request) {
  const auto& body = request.body;
  for (const char* field : {"source", "target"})
    if (!body.contains(field) || !body[field].is_string() || body[field].get<std::string>().empty())
      return error_response(ApiError::invalid_input, fmt::format("the body needs a non-empty string field '{}'", field));
  dataset::ImportOptions options;
  options.source = body["source"].get<std::string>();
  options.target = body["target"].get<std::string>();
  if (body.contains("mode")) {
    if (!body["mode"].is_string() || (body["mode"] != "copy" && body["mode"] != "move"))
      return error_response(ApiError::invalid_input, "'mode' must be \"copy\" or \"move\"");
    options.move = body["mode"] == "move";
  }
  if (body.contains("verify")) {
    if (!body["verify"].is_boolean()) return error_response(ApiError::invalid_input, "'verify' must be true or false");
    options.verify = body["verify"].get<bool>();
  }
  if (body.contains("jobs")) {
    if (!body["jobs"].is_number_integer() || body["jobs"].get<long long>() < 1 ||
        body["jobs"].get<long long>() > static_cast<long long>(dataset::k_max_jobs))
      return error_response(ApiError::invalid_input,
                            fmt::format("'jobs' must be a whole number from 1 to {}", dataset::k_max_jobs));
    options.jobs = body["jobs"].get<unsigned>();
  }
  // Containment before any I/O: both paths resolved (symlinks followed) and under the roots.
  auto resolved = dataset::resolve_import_paths(options.source, options.target);
  if (!resolved) return error_response(api_error_for(resolved.error().code), resolved.error().message);
  for (auto [path, what] : {std::pair{&resolved->source, "source"}, std::pair{&resolved->target, "target"}}) {
    auto inside = dataset::check_under_roots(*path, context.roots, what);
    if (!inside) return error_response(ApiError::unprocessable, inside.error().message);
  }
  if (target_locked_elsewhere(resolved->target))
    return error_response(ApiError::conflict,
                          fmt::format("another import into '{}' is running (another process holds its lock)",
                                      resolved->target.string()));
  options.source = resolved->source;
  options.target = resolved->target;
  auto id = jobs.manager.start(options, resolved->target.string());
  if (!id) return error_response(api_error_for(id.error().code), id.error().message);
  auto status = jobs.manager.status(*id);
  (*status)["location"] = std::string(agent_api::route::k_jobs) + *id;
  return {202, *status};
}

ApiResponse job_status(DatasetJobs& jobs, const ApiRequest& request) {
  auto status = jobs.manager.status(request.params.at("id"));
  if (!status) return error_response(ApiError::not_found, fmt::format("no import job '{}'", request.params.at("id")));
  return ok(*status);
}

ApiResponse cancel_job(DatasetJobs& jobs, const ApiRequest& request) {
  const auto& id = request.params.at("id");
  auto cancelled = jobs.manager.cancel(id);
  if (!cancelled) return error_response(ApiError::not_found, cancelled.error().message);
  return {202, *jobs.manager.status(id)};
}

}  // namespace

void register_dataset_routes(Router& router, AgentContext& context) {
  // Owned by the routes' handlers: lives as long as the router; its destructor cancels and joins.
  auto jobs = std::make_shared<DatasetJobs>();
  const AgentContext* c = &context;
  router.add({"POST", agent_api::route::k_datasets, {"source", "target", "mode", "verify", "jobs"},
              [jobs, c](const ApiRequest& r) { return start_import(*jobs, *c, r); }});
  router.add({"GET", std::string(agent_api::route::k_jobs) + "{id}", {},
              [jobs](const ApiRequest& r) { return job_status(*jobs, r); }});
  router.add({"POST", std::string(agent_api::route::k_jobs) + "{id}/cancel", {},
              [jobs](const ApiRequest& r) { return cancel_job(*jobs, r); }});
}

}  // namespace tfwsl::agent
