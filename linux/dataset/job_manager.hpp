#pragma once
// Import jobs for the agent: start one in the background, read its state and progress, cancel it.
// One mutating job per target at a time: a second start on a target that a running job holds is a
// conflict (the engine's lock file catches a job from another process too). The work is bounded
// (job_limits.hpp): imports at once, their threads together, and how many finished jobs are kept.
// Platform-neutral: the engine comes in as a function, so tests drive the manager with a scripted one.

#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "common/agent_api/job_wire.hpp"
#include "common/core/clock.hpp"
#include "common/core/error.hpp"
#include "linux/dataset/import_types.hpp"
#include "linux/dataset/job_limits.hpp"

namespace tfwsl::dataset {

using ImportRunner = std::function<Result<ImportReport>(const ImportOptions&, ProgressTracker&, const CancelToken&)>;

// A job's state on the wire (common/agent_api/job_wire).
using JobState = agent_api::JobStatus;

struct JobRequest {
  ImportOptions options;     // paths as the engine opens them (resolved); options.jobs as asked
  std::string target_key;    // the conflict key: the resolved target
  std::string source_shown;  // the paths as the client gave them: what status and errors show
  std::string target_shown;  // (empty: the options' paths)
};

// What the running jobs hold now (the manager's own accounting, for tests and the log).
struct JobUsage {
  unsigned running = 0;
  unsigned threads = 0;  // sum of import_thread_cost() of the running jobs
  std::size_t finished_kept = 0;
};

class ImportJobManager {
 public:
  ImportJobManager(const Clock& clock, ImportRunner runner, JobLimits limits = {});
  ~ImportJobManager();  // cancels running jobs and waits for them
  ImportJobManager(const ImportJobManager&) = delete;
  ImportJobManager& operator=(const ImportJobManager&) = delete;

  // Returns the new job's id; conflict when a running job writes into the same target, busy when
  // the limits are reached (the message says which and what to do).
  Result<std::string> start(JobRequest request);

  // {id, state, source, target, mode, verify, jobs, jobs_requested, progress{...},
  //  result{...} | error{code,message}}; nothing for an id never issued or already forgotten.
  std::optional<nlohmann::json> status(const std::string& id);

  // not_found for an unknown id; cancelling a finished job is a no-op.
  Status cancel(const std::string& id);

  // Blocks until the job is no longer running (tests, shutdown).
  void wait(const std::string& id);

  // The 404 text for an id status() does not know: forgotten (issued, finished, dropped) or never issued.
  std::string unknown_job_message(const std::string& id) const;

  JobUsage usage() const;
  const JobLimits& limits() const { return m_limits; }

 private:
  struct Job;
  Result<unsigned> workers_that_fit(unsigned asked) const;                         // with m_mutex held
  std::optional<std::string> running_job_on(const std::string& target_key) const;  // with m_mutex held
  std::shared_ptr<Job> find(const std::string& id);
  Result<ImportReport> run_guarded(Job& job);  // on the job's thread
  void finish(Job& job, Result<ImportReport> result);
  std::vector<std::thread> forget_expired();  // with m_mutex held; the threads to join after unlocking

  const Clock& m_clock;
  ImportRunner m_runner;
  JobLimits m_limits;
  mutable std::mutex m_mutex;  // guards everything below (and is taken before a job's own mutex)
  std::map<std::string, std::shared_ptr<Job>> m_jobs;
  std::deque<std::string> m_finished;  // ids of finished jobs still kept, oldest first
  unsigned m_running = 0;
  unsigned m_threads = 0;
  unsigned long m_next_id = 1;
};

}  // namespace tfwsl::dataset
