#include "linux/dataset/job_manager.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <condition_variable>

namespace tfwsl::dataset {

struct ImportJobManager::Job {
  explicit Job(const Clock& clock) : progress(clock) {}
  std::string id;
  JobRequest request;
  unsigned jobs_requested = 0;
  unsigned thread_cost = 0;  // import_thread_cost(request.options.jobs), held while running
  ProgressTracker progress;
  CancelToken cancel;
  std::thread thread;        // moved out (under the manager's mutex) by whoever joins it
  mutable std::mutex mutex;  // guards the fields below
  std::condition_variable finished;
  JobState state = JobState::running;
  std::chrono::steady_clock::time_point finished_at;
  std::optional<ImportReport> report;
  std::optional<Error> error;
};

namespace {

void join_all(std::vector<std::thread>& threads) {
  for (auto& t : threads)
    if (t.joinable()) t.join();
}

std::string kept_for_text(const JobLimits& limits) {
  auto seconds = limits.keep_finished_for.count();
  if (seconds % 3600 == 0) return fmt::format("{} h", seconds / 3600);
  if (seconds % 60 == 0) return fmt::format("{} min", seconds / 60);
  return fmt::format("{} s", seconds);
}

}  // namespace

ImportJobManager::ImportJobManager(const Clock& clock, ImportRunner runner, JobLimits limits)
    : m_clock(clock), m_runner(std::move(runner)), m_limits(limits) {}

ImportJobManager::~ImportJobManager() {
  std::vector<std::thread> threads;
  {
    std::lock_guard lock(m_mutex);
    for (auto& [id, job] : m_jobs) {
      job->cancel.cancel();
      threads.push_back(std::move(job->thread));
    }
  }
  join_all(threads);
}

// Workers for a start that asked for `asked`: all of them when the budget allows, else what is
// left of it; busy when not even the engine's minimum (its scan threads) is left.
Result<unsigned> ImportJobManager::workers_that_fit(unsigned asked) const {
  if (m_running >= m_limits.max_running)
    return make_error(ErrorCode::busy,
                      fmt::format("{} imports are running, the most this agent runs at once: retry when one has "
                                  "finished (GET /v1/jobs/<id>), or cancel one",
                                  m_running));
  unsigned left = m_limits.max_threads > m_threads ? m_limits.max_threads - m_threads : 0;
  if (left < import_thread_cost(1))
    return make_error(ErrorCode::busy,
                      fmt::format("the running imports hold {} of the {} threads this agent gives imports, and an "
                                  "import needs at least {}: retry when one has finished, or cancel one",
                                  m_threads, m_limits.max_threads, import_thread_cost(1)));
  return std::min(asked, left - 1);  // cost = 1 + max(workers, scan threads) <= left
}

Result<std::string> ImportJobManager::start(JobRequest request) {
  if (request.target_shown.empty()) request.target_shown = request.options.target.string();
  if (request.source_shown.empty()) request.source_shown = request.options.source.string();
  std::vector<std::thread> done;
  auto started = [&]() -> Result<std::string> {
    std::lock_guard lock(m_mutex);
    done = forget_expired();
    if (auto holder = running_job_on(request.target_key))
      return make_error(ErrorCode::conflict,
                        fmt::format("import job {} is already writing into '{}': wait for it or cancel it", *holder,
                                    request.target_shown));
    unsigned asked = std::clamp(request.options.jobs, 1u, k_max_jobs);
    TFWSL_TRY(workers, workers_that_fit(asked));
    auto job = std::make_shared<Job>(m_clock);
    job->id = std::to_string(m_next_id++);
    job->request = std::move(request);
    job->jobs_requested = asked;
    job->request.options.jobs = workers;
    job->thread_cost = import_thread_cost(workers);
    m_running++;
    m_threads += job->thread_cost;
    m_jobs[job->id] = job;
    job->thread = std::thread([this, job] { finish(*job, run_guarded(*job)); });
    return job->id;
  }();
  join_all(done);  // finished jobs' threads, outside the lock
  return started;
}

std::optional<std::string> ImportJobManager::running_job_on(const std::string& target_key) const {
  for (const auto& [id, job] : m_jobs) {
    std::lock_guard job_lock(job->mutex);
    if (job->state == JobState::running && job->request.target_key == target_key) return id;
  }
  return std::nullopt;
}

Result<ImportReport> ImportJobManager::run_guarded(Job& job) {
  try {
    return m_runner(job.request.options, job.progress, job.cancel);
  } catch (const std::exception& e) {
    return make_error(ErrorCode::internal, std::string("the import failed unexpectedly: ") + e.what());
  }
}

// On the job's own thread, its last step: gives back its share of the limits and records the end.
void ImportJobManager::finish(Job& job, Result<ImportReport> result) {
  std::lock_guard lock(m_mutex);
  std::lock_guard job_lock(job.mutex);
  if (result) {
    job.report = std::move(*result);
    job.state = JobState::succeeded;
  } else {
    job.state = result.error().code == ErrorCode::cancelled ? JobState::cancelled : JobState::failed;
    job.error = std::move(result).error();
  }
  job.finished_at = m_clock.now();
  m_running--;
  m_threads -= job.thread_cost;
  m_finished.push_back(job.id);
  job.finished.notify_all();
}

// Drops finished jobs past keep_finished (oldest first) or older than keep_finished_for. The
// threads of every finished job are handed back for joining: they have run their last step.
std::vector<std::thread> ImportJobManager::forget_expired() {
  std::vector<std::thread> threads;
  auto now = m_clock.now();
  while (!m_finished.empty()) {
    auto it = m_jobs.find(m_finished.front());
    std::chrono::steady_clock::time_point finished_at;
    {
      std::lock_guard job_lock(it->second->mutex);
      finished_at = it->second->finished_at;
    }
    if (m_finished.size() <= m_limits.keep_finished && now - finished_at < m_limits.keep_finished_for) break;
    threads.push_back(std::move(it->second->thread));
    m_jobs.erase(it);
    m_finished.pop_front();
  }
  for (const auto& id : m_finished) threads.push_back(std::move(m_jobs[id]->thread));
  return threads;
}

std::shared_ptr<ImportJobManager::Job> ImportJobManager::find(const std::string& id) {
  std::vector<std::thread> done;
  std::shared_ptr<Job> job;
  {
    std::lock_guard lock(m_mutex);
    done = forget_expired();
    auto it = m_jobs.find(id);
    if (it != m_jobs.end()) job = it->second;
  }
  join_all(done);
  return job;
}

std::optional<nlohmann::json> ImportJobManager::status(const std::string& id) {
  auto job = find(id);
  if (!job) return std::nullopt;
  const auto& options = job->request.options;
  nlohmann::json out{{"id", job->id},
                     {"source", display_path(job->request.source_shown)},
                     {"target", display_path(job->request.target_shown)},
                     {"mode", options.move ? "move" : "copy"},
                     {"verify", options.verify},
                     {"jobs", options.jobs},
                     {"jobs_requested", job->jobs_requested},
                     {"progress", to_json(job->progress.snapshot())}};
  out["exclude"] = nlohmann::json::array();
  for (const auto& name : options.exclude) out["exclude"].push_back(display_path(name));
  std::lock_guard job_lock(job->mutex);
  out["state"] = to_string(job->state);
  if (job->report) out["result"] = to_json(*job->report);
  if (job->error) out["error"] = {{"code", tfwsl::to_string(job->error->code)}, {"message", job->error->message}};
  return out;
}

Status ImportJobManager::cancel(const std::string& id) {
  auto job = find(id);
  if (!job) return make_error(ErrorCode::not_found, unknown_job_message(id));
  job->cancel.cancel();
  return {};
}

void ImportJobManager::wait(const std::string& id) {
  auto job = find(id);
  if (!job) return;
  std::unique_lock job_lock(job->mutex);
  job->finished.wait(job_lock, [&] { return job->state != JobState::running; });
}

std::string ImportJobManager::unknown_job_message(const std::string& id) const {
  bool decimal = !id.empty() && id.size() <= 19 &&
                 std::all_of(id.begin(), id.end(), [](unsigned char c) { return std::isdigit(c) != 0; });
  std::lock_guard lock(m_mutex);
  if (decimal && id[0] != '0' && std::stoull(id) < m_next_id)
    return fmt::format(
        "import job {} has finished and been forgotten: the agent keeps the last {} finished jobs "
        "for {} at most",
        id, m_limits.keep_finished, kept_for_text(m_limits));
  // The id is not echoed: it is the client's string, of any length.
  return "no such import job: that id never existed in this agent (ids are the \"id\" a POST /v1/datasets answered)";
}

JobUsage ImportJobManager::usage() const {
  std::lock_guard lock(m_mutex);
  return {m_running, m_threads, m_finished.size()};
}

}  // namespace tfwsl::dataset
