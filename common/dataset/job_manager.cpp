#include "common/dataset/job_manager.hpp"

#include <condition_variable>

#include <fmt/format.h>

namespace tfwsl::dataset {

const char* to_string(JobState state) {
  switch (state) {
    case JobState::running: return "running";
    case JobState::succeeded: return "succeeded";
    case JobState::failed: return "failed";
    case JobState::cancelled: return "cancelled";
  }
  return "unknown";
}

struct ImportJobManager::Job {
  explicit Job(const Clock& clock) : progress(clock) {}
  std::string id;
  std::string target_key;
  ImportOptions options;
  ProgressTracker progress;
  CancelToken cancel;
  std::thread thread;
  mutable std::mutex mutex;  // guards the fields below
  std::condition_variable finished;
  JobState state = JobState::running;
  std::optional<ImportReport> report;
  std::optional<Error> error;
};

ImportJobManager::ImportJobManager(const Clock& clock, ImportRunner runner)
    : m_clock(clock), m_runner(std::move(runner)) {}

ImportJobManager::~ImportJobManager() {
  std::map<std::string, std::shared_ptr<Job>> jobs;
  {
    std::lock_guard lock(m_mutex);
    jobs = m_jobs;
  }
  for (auto& [id, job] : jobs) job->cancel.cancel();
  for (auto& [id, job] : jobs)
    if (job->thread.joinable()) job->thread.join();
}

Result<std::string> ImportJobManager::start(ImportOptions options, const std::string& target_key) {
  std::lock_guard lock(m_mutex);
  for (const auto& [id, job] : m_jobs) {
    std::lock_guard job_lock(job->mutex);
    if (job->state == JobState::running && job->target_key == target_key)
      return make_error(ErrorCode::conflict,
                        fmt::format("import job {} is already writing into '{}': wait for it or cancel it", id,
                                    target_key));
  }
  auto job = std::make_shared<Job>(m_clock);
  job->id = std::to_string(m_next_id++);
  job->target_key = target_key;
  job->options = std::move(options);
  m_jobs[job->id] = job;
  job->thread = std::thread([this, job] {
    Result<ImportReport> result = [&]() -> Result<ImportReport> {
      try {
        return m_runner(job->options, job->progress, job->cancel);
      } catch (const std::exception& e) {
        return make_error(ErrorCode::internal, std::string("the import failed unexpectedly: ") + e.what());
      }
    }();
    std::lock_guard job_lock(job->mutex);
    if (result) {
      job->report = std::move(*result);
      job->state = JobState::succeeded;
    } else {
      job->state = result.error().code == ErrorCode::cancelled ? JobState::cancelled : JobState::failed;
      job->error = std::move(result).error();
    }
    job->finished.notify_all();
  });
  return job->id;
}

std::optional<nlohmann::json> ImportJobManager::status(const std::string& id) const {
  std::shared_ptr<Job> job;
  {
    std::lock_guard lock(m_mutex);
    auto it = m_jobs.find(id);
    if (it == m_jobs.end()) return std::nullopt;
    job = it->second;
  }
  nlohmann::json out{{"id", job->id},
                     {"source", job->options.source.string()},
                     {"target", job->options.target.string()},
                     {"mode", job->options.move ? "move" : "copy"},
                     {"verify", job->options.verify},
                     {"progress", to_json(job->progress.snapshot())}};
  std::lock_guard job_lock(job->mutex);
  out["state"] = to_string(job->state);
  if (job->report) out["result"] = to_json(*job->report);
  if (job->error)
    out["error"] = {{"code", tfwsl::to_string(job->error->code)}, {"message", job->error->message}};
  return out;
}

Status ImportJobManager::cancel(const std::string& id) {
  std::lock_guard lock(m_mutex);
  auto it = m_jobs.find(id);
  if (it == m_jobs.end()) return make_error(ErrorCode::not_found, fmt::format("no import job '{}'", id));
  it->second->cancel.cancel();
  return {};
}

void ImportJobManager::wait(const std::string& id) {
  std::shared_ptr<Job> job;
  {
    std::lock_guard lock(m_mutex);
    auto it = m_jobs.find(id);
    if (it == m_jobs.end()) return;
    job = it->second;
  }
  std::unique_lock job_lock(job->mutex);
  job->finished.wait(job_lock, [&] { return job->state != JobState::running; });
}

}  // namespace tfwsl::dataset
