#pragma once
// Import jobs for the agent: start one in the background, read its state and progress, cancel it.
// One mutating job per target at a time: a second start on a target that a running job holds is a
// conflict (the engine's lock file catches a job from another process too). Platform-neutral: the
// engine comes in as a function, so tests drive the manager with a scripted one.

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include <nlohmann/json.hpp>

#include "common/core/clock.hpp"
#include "common/core/error.hpp"
#include "common/dataset/import_types.hpp"

namespace tfwsl::dataset {

using ImportRunner =
    std::function<Result<ImportReport>(const ImportOptions&, ProgressTracker&, const CancelToken&)>;

enum class JobState { running, succeeded, failed, cancelled };
const char* to_string(JobState state);

class ImportJobManager {
 public:
  ImportJobManager(const Clock& clock, ImportRunner runner);
  ~ImportJobManager();  // cancels running jobs and waits for them
  ImportJobManager(const ImportJobManager&) = delete;
  ImportJobManager& operator=(const ImportJobManager&) = delete;

  // target_key: the resolved target path (the conflict key). Returns the new job's id.
  Result<std::string> start(ImportOptions options, const std::string& target_key);

  // {id, state, source, target, mode, verify, progress{...}, result{...} | error{code,message}}
  std::optional<nlohmann::json> status(const std::string& id) const;

  // not_found for an unknown id; cancelling a finished job is a no-op.
  Status cancel(const std::string& id);

  // Blocks until the job is no longer running (tests, shutdown).
  void wait(const std::string& id);

 private:
  struct Job;
  const Clock& m_clock;
  ImportRunner m_runner;
  mutable std::mutex m_mutex;
  std::map<std::string, std::shared_ptr<Job>> m_jobs;
  unsigned long m_next_id = 1;
};

}  // namespace tfwsl::dataset
