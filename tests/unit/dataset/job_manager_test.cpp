#include "linux/dataset/job_manager.hpp"

#include <atomic>
#include <catch2/catch.hpp>
#include <condition_variable>
#include <mutex>
#include <thread>

using namespace tfwsl::dataset;

namespace {

// A runner that reports progress, then waits until released or cancelled.
struct ScriptedRunner {
  std::mutex mutex;
  std::condition_variable changed;
  bool released = false;
  std::atomic<bool> saw_cancel{false};

  ImportRunner runner() {
    return [this](const ImportOptions& options, ProgressTracker& progress,
                  const CancelToken& cancel) -> tfwsl::Result<ImportReport> {
      progress.set_phase(ImportPhase::copying);
      progress.add_found(3, 30);
      progress.file_copied(10);
      std::unique_lock lock(mutex);
      while (!released && !cancel.cancelled()) changed.wait_for(lock, std::chrono::milliseconds(5));
      if (cancel.cancelled()) {
        saw_cancel = true;
        return tfwsl::make_error(tfwsl::ErrorCode::cancelled, "cancelled");
      }
      if (options.source == "fail") return tfwsl::make_error(tfwsl::ErrorCode::no_space, "no space left");
      progress.set_phase(ImportPhase::done);
      ImportReport report;
      report.totals = progress.snapshot();
      return report;
    };
  }
  void release() {
    std::lock_guard lock(mutex);
    released = true;
    changed.notify_all();
  }
};

JobRequest job_request(std::string source, std::string target, unsigned workers = k_default_jobs) {
  JobRequest r;
  r.options.source = std::move(source);
  r.options.target = target;
  r.options.jobs = workers;
  r.target_key = std::move(target);
  return r;
}

}  // namespace

TEST_CASE("one running job per target, others run side by side", "[job_manager]") {
  tfwsl::ManualClock clock;
  ScriptedRunner script;
  ImportJobManager jobs(clock, script.runner());
  auto first = jobs.start(job_request("a", "/t1"));
  REQUIRE(first);
  auto second = jobs.start(job_request("b", "/t1"));
  REQUIRE_FALSE(second);
  CHECK(second.error().code == tfwsl::ErrorCode::conflict);
  auto other = jobs.start(job_request("b", "/t2"));
  REQUIRE(other);
  CHECK(*other != *first);

  auto running = jobs.status(*first);
  REQUIRE(running);
  CHECK((*running)["state"] == "running");
  CHECK((*running)["target"] == "/t1");
  CHECK((*running)["mode"] == "copy");

  script.release();
  jobs.wait(*first);
  auto done = jobs.status(*first);
  CHECK((*done)["state"] == "succeeded");
  CHECK((*done)["result"]["totals"]["files_copied"] == 1);
  CHECK(jobs.start(job_request("c", "/t1")));  // the target is free again
}

TEST_CASE("a job can be cancelled, fails with its error, and unknown ids are not found", "[job_manager]") {
  tfwsl::ManualClock clock;
  ScriptedRunner script;
  ImportJobManager jobs(clock, script.runner());
  auto id = jobs.start(job_request("a", "/t"));
  REQUIRE(id);
  for (int i = 0; i < 2000 && (*jobs.status(*id))["progress"]["files_done"] != 1; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));  // the job thread reports its first file
  CHECK((*jobs.status(*id))["progress"]["files_done"] == 1);
  REQUIRE(jobs.cancel(*id));
  jobs.wait(*id);
  CHECK((*jobs.status(*id))["state"] == "cancelled");
  CHECK_FALSE(jobs.status("999"));
  CHECK(jobs.cancel("999").error().code == tfwsl::ErrorCode::not_found);

  script.release();
  auto failing = jobs.start(job_request("fail", "/t"));
  REQUIRE(failing);
  jobs.wait(*failing);
  auto failed = *jobs.status(*failing);
  CHECK(failed["state"] == "failed");
  CHECK(failed["error"]["code"] == "no_space");
}

TEST_CASE("destroying the manager cancels and waits for running jobs", "[job_manager]") {
  tfwsl::ManualClock clock;
  ScriptedRunner script;
  {
    ImportJobManager jobs(clock, script.runner());
    REQUIRE(jobs.start(job_request("a", "/t")));
  }  // would hang here if the job were not cancelled
  CHECK(script.saw_cancel);
}
