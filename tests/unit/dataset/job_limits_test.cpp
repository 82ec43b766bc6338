// The job manager's limits: imports at once, their threads together (counted by the manager and in
// /proc/self/task), and how long finished jobs are kept.
#include <atomic>
#include <catch2/catch.hpp>
#include <condition_variable>
#include <filesystem>
#include <mutex>
#include <thread>
#include <vector>

#include "linux/dataset/job_manager.hpp"

using namespace tfwsl::dataset;

namespace {

// Holds as many threads as the engine would at its peak (its scan: max(jobs, 64)) until released
// or cancelled, so the test decides when a job ends and can count what it costs.
class ThreadHoldingRunner {
 public:
  ImportRunner runner() {
    return [this](const ImportOptions& options, ProgressTracker&,
                  const CancelToken& cancel) -> tfwsl::Result<ImportReport> {
      unsigned count = std::max(options.jobs, 64u);
      std::vector<std::thread> held;
      for (unsigned i = 0; i < count; ++i)
        held.emplace_back([this, &cancel] {
          std::unique_lock lock(m_mutex);
          m_holding++;
          m_changed.notify_all();
          while (!m_released && !cancel.cancelled()) m_changed.wait_for(lock, std::chrono::milliseconds(5));
          m_holding--;
        });
      for (auto& t : held) t.join();
      if (cancel.cancelled()) return tfwsl::make_error(tfwsl::ErrorCode::cancelled, "cancelled");
      return ImportReport{};
    };
  }
  void release() {
    std::lock_guard lock(m_mutex);
    m_released = true;
    m_changed.notify_all();
  }
  // Waits until `count` threads are holding (the runners have all started).
  bool wait_holding(unsigned count) {
    std::unique_lock lock(m_mutex);
    return m_changed.wait_for(lock, std::chrono::seconds(30), [&] { return m_holding >= count; });
  }

 private:
  std::mutex m_mutex;
  std::condition_variable m_changed;
  unsigned m_holding = 0;
  bool m_released = false;
};

ImportRunner finishes_at_once() {
  return [](const ImportOptions&, ProgressTracker&, const CancelToken&) -> tfwsl::Result<ImportReport> {
    return ImportReport{};
  };
}

JobRequest limits_request(const std::string& target, unsigned workers = k_default_jobs) {
  JobRequest r;
  r.options.source = "/src";
  r.options.target = target;
  r.options.jobs = workers;
  r.target_key = target;
  return r;
}

std::size_t threads_of_this_process() {
  std::size_t n = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator("/proc/self/task")) ++n;
  return n;
}

}  // namespace

TEST_CASE("at most max_running imports run at once, the next start is busy and says why", "[job_limits]") {
  tfwsl::ManualClock clock;
  ThreadHoldingRunner script;
  JobLimits limits;
  limits.max_running = 2;
  ImportJobManager jobs(clock, script.runner(), limits);
  auto first = jobs.start(limits_request("/t1"));
  auto second = jobs.start(limits_request("/t2"));
  REQUIRE(first);
  REQUIRE(second);
  auto third = jobs.start(limits_request("/t3"));
  REQUIRE_FALSE(third);
  CHECK(third.error().code == tfwsl::ErrorCode::busy);
  CHECK_THAT(third.error().message, Catch::Contains("2 imports are running") && Catch::Contains("at once"));
  CHECK(jobs.usage().running == 2);

  REQUIRE(jobs.cancel(*first));
  jobs.wait(*first);
  CHECK(jobs.usage().running == 1);
  CHECK(jobs.start(limits_request("/t3")));  // a slot is free again
}

TEST_CASE("starts racing for the last slots never exceed max_running", "[job_limits]") {
  tfwsl::ManualClock clock;
  ThreadHoldingRunner script;
  JobLimits limits;
  limits.max_running = 3;
  ImportJobManager jobs(clock, script.runner(), limits);
  std::atomic<int> accepted{0}, busy{0};
  std::vector<std::thread> clients;
  for (int i = 0; i < 12; ++i)
    clients.emplace_back([&, i] {
      auto id = jobs.start(limits_request("/t" + std::to_string(i)));
      if (id)
        accepted++;
      else if (id.error().code == tfwsl::ErrorCode::busy)
        busy++;
    });
  for (auto& c : clients) c.join();
  CHECK(accepted == 3);
  CHECK(busy == 9);
  CHECK(jobs.usage().running == 3);
}

TEST_CASE("the threads of all running imports stay within max_threads, a start gets the workers that fit",
          "[job_limits]") {
  tfwsl::ManualClock clock;
  ThreadHoldingRunner script;
  ImportJobManager jobs(clock, script.runner());  // the defaults: 4 at once, 512 threads
  REQUIRE(jobs.limits().max_threads == 512);
  auto before = threads_of_this_process();
  std::vector<std::string> ids;
  std::vector<tfwsl::Error> refusals;
  for (int i = 0; i < 8; ++i) {
    auto id = jobs.start(limits_request("/t" + std::to_string(i), k_max_jobs));
    if (id)
      ids.push_back(*id);
    else
      refusals.push_back(id.error());
  }
  REQUIRE(ids.size() == 2);  // 257 + 255 threads: the budget is spent
  CHECK((*jobs.status(ids[0]))["jobs"] == 256);
  CHECK((*jobs.status(ids[0]))["jobs_requested"] == 256);
  CHECK((*jobs.status(ids[1]))["jobs"] == 254);  // fewer workers: what was left of the budget
  REQUIRE(refusals.size() == 6);
  CHECK(refusals[0].code == tfwsl::ErrorCode::busy);
  CHECK_THAT(refusals[0].message, Catch::Contains("threads"));
  CHECK(jobs.usage().threads == 512);
  CHECK(jobs.usage().threads == import_thread_cost(256) + import_thread_cost(254));

  REQUIRE(script.wait_holding(256 + 254));
  auto during = threads_of_this_process();
  INFO("threads before " << before << ", while the imports run " << during);
  CHECK(during - before <= jobs.limits().max_threads);
  script.release();
  for (const auto& id : ids) jobs.wait(id);
  CHECK(jobs.usage().threads == 0);
  CHECK(jobs.usage().running == 0);
}

TEST_CASE("a start that asks for few workers still costs the engine's scan threads", "[job_limits]") {
  CHECK(import_thread_cost(1) == 65);
  CHECK(import_thread_cost(64) == 65);
  CHECK(import_thread_cost(256) == 257);
  tfwsl::ManualClock clock;
  ThreadHoldingRunner script;
  JobLimits limits;
  limits.max_running = 10;
  limits.max_threads = 200;
  ImportJobManager jobs(clock, script.runner(), limits);
  REQUIRE(jobs.start(limits_request("/a", 1)));
  REQUIRE(jobs.start(limits_request("/b", 1)));
  CHECK(jobs.usage().threads == 130);
  auto third = jobs.start(limits_request("/c", 1));  // 70 left, 65 needed: still fits
  REQUIRE(third);
  CHECK_FALSE(jobs.start(limits_request("/d", 1)));  // 5 left
  script.release();
}

TEST_CASE("finished jobs are kept keep_finished at most and keep_finished_for long, then answer forgotten",
          "[job_limits]") {
  tfwsl::ManualClock clock;
  JobLimits limits;
  limits.keep_finished = 2;
  limits.keep_finished_for = std::chrono::minutes(1);
  ImportJobManager jobs(clock, finishes_at_once(), limits);
  std::vector<std::string> ids;
  for (int i = 0; i < 3; ++i) {
    auto id = jobs.start(limits_request("/t"));
    REQUIRE(id);
    jobs.wait(*id);
    ids.push_back(*id);
  }
  jobs.start(limits_request("/u")).map([&](const std::string& id) {
    jobs.wait(id);
    ids.push_back(id);
  });
  REQUIRE(ids.size() == 4);
  CHECK_FALSE(jobs.status(ids[0]));  // the oldest two went when the third and fourth finished
  CHECK_FALSE(jobs.status(ids[1]));
  CHECK(jobs.status(ids[2]));
  CHECK(jobs.status(ids[3]));
  CHECK(jobs.usage().finished_kept == 2);
  CHECK_THAT(jobs.unknown_job_message(ids[0]), Catch::Contains("forgotten") && Catch::Contains("2 finished"));
  CHECK_THAT(jobs.unknown_job_message("999"), Catch::Contains("never existed"));
  CHECK_THAT(jobs.unknown_job_message("x'y"), Catch::Contains("never existed"));

  clock.advance(std::chrono::seconds(61));
  CHECK_FALSE(jobs.status(ids[2]));  // past keep_finished_for
  CHECK_FALSE(jobs.status(ids[3]));
  CHECK(jobs.usage().finished_kept == 0);
  CHECK(jobs.cancel(ids[3]).error().code == tfwsl::ErrorCode::not_found);
}

TEST_CASE("a running job is never forgotten, however long it runs", "[job_limits]") {
  tfwsl::ManualClock clock;
  ThreadHoldingRunner script;
  JobLimits limits;
  limits.keep_finished = 0;
  limits.keep_finished_for = std::chrono::seconds(1);
  ImportJobManager jobs(clock, script.runner(), limits);
  auto id = jobs.start(limits_request("/t"));
  REQUIRE(id);
  clock.advance(std::chrono::hours(2));
  REQUIRE(jobs.status(*id));
  CHECK((*jobs.status(*id))["state"] == "running");
  script.release();
  jobs.wait(*id);
  CHECK_FALSE(jobs.status(*id));  // kept for none once finished
}
