// The probe cache with a probe run the test controls: one run however many ask, readers never wait
// for it, refreshes are rate limited (on a manual clock), waiting is capped, and shutdown releases
// every waiter. Nothing here sleeps to let something happen: the tests wait for the state itself.
#include "linux/agent/facts_cache.hpp"

#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <condition_variable>
#include <future>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "common/core/clock.hpp"

using namespace tfwsl;
using namespace tfwsl::agent;
using namespace std::chrono_literals;

namespace {

// A probe run that blocks until release() (or returns at once when open).
struct ControlledProbe {
  std::atomic<int> runs{0};
  std::mutex mutex;
  std::condition_variable cv;
  bool open = true;

  FactsCache::Gather gather() {
    return [this](const linux_checks::ProbeEnvironment&) {
      ++runs;
      std::unique_lock lock(mutex);
      cv.wait(lock, [this] { return open; });
      linux_checks::LinuxFacts facts;
      facts.wsl.kernel = "run " + std::to_string(runs.load());
      return facts;
    };
  }
  void hold() {
    std::lock_guard lock(mutex);
    open = false;
  }
  void release() {
    {
      std::lock_guard lock(mutex);
      open = true;
    }
    cv.notify_all();
  }
};

linux_checks::ProbeEnvironment env() { return {}; }

void wait_for_runs(const ControlledProbe& probe, int n) {
  for (int i = 0; i < 500 && probe.runs.load() < n; ++i) std::this_thread::sleep_for(2ms);
}

// Until `n` callers wait for the run in flight (bounded: a broken cache fails the CHECK after).
bool wait_for_waiters(const FactsCache& cache, std::size_t n) {
  for (int i = 0; i < 2500 && cache.waiting() < n; ++i) std::this_thread::sleep_for(2ms);
  return cache.waiting() >= n;
}

}  // namespace

TEST_CASE("concurrent refreshes share one probe run", "[facts]") {
  ControlledProbe probe;
  FactsCache cache(probe.gather());
  cache.set_limits({0ms, 16});
  probe.hold();
  std::vector<std::future<bool>> callers;
  for (int i = 0; i < 8; ++i)
    callers.push_back(std::async(std::launch::async, [&] {
      auto e = cache.get(env(), true);
      return e && !e->cached;
    }));
  wait_for_runs(probe, 1);
  CHECK(wait_for_waiters(cache, 8));  // every caller waits for the one run
  probe.release();
  for (auto& c : callers) CHECK(c.get());
  CHECK(probe.runs == 1);
}

TEST_CASE("a cached read does not wait for a running refresh", "[facts]") {
  ControlledProbe probe;
  FactsCache cache(probe.gather());
  cache.set_limits({0ms, 4});
  REQUIRE(cache.get(env(), false));
  probe.hold();
  auto refresh = std::async(std::launch::async, [&] { return cache.get(env(), true); });
  wait_for_runs(probe, 2);
  auto start = std::chrono::steady_clock::now();
  auto cached = cache.get(env(), false);
  CHECK(std::chrono::steady_clock::now() - start < 100ms);
  REQUIRE(cached);
  CHECK(cached->cached);
  CHECK(cached->facts.wsl.kernel == "run 1");
  probe.release();
  auto fresh = refresh.get();
  REQUIRE(fresh);
  CHECK(fresh->refresh == FactsCache::Refresh::done);
  CHECK(fresh->facts.wsl.kernel == "run 2");
}

TEST_CASE("a refresh within the interval answers the cached report", "[facts]") {
  ControlledProbe probe;
  FactsCache cache(probe.gather());
  cache.set_limits({60s, 4});
  REQUIRE(cache.get(env(), true));
  auto again = cache.get(env(), true);
  REQUIRE(again);
  CHECK(again->cached);
  CHECK(again->refresh == FactsCache::Refresh::rate_limited);
  CHECK(probe.runs == 1);
}

TEST_CASE("a refresh probes again once the interval has passed on the cache's clock, and ages follow it", "[facts]") {
  ControlledProbe probe;
  ManualClock clock;
  FactsCache cache(probe.gather(), clock);
  cache.set_limits({5s, 4});
  REQUIRE(cache.get(env(), true));
  clock.advance(4900ms);
  auto young = cache.get(env(), true);
  REQUIRE(young);
  CHECK(young->refresh == FactsCache::Refresh::rate_limited);
  CHECK(young->age == 4900ms);
  CHECK(probe.runs == 1);
  clock.advance(100ms);
  auto due = cache.get(env(), true);
  REQUIRE(due);
  CHECK(due->refresh == FactsCache::Refresh::done);
  CHECK_FALSE(due->cached);
  CHECK(due->age == 0ms);
  CHECK(probe.runs == 2);
}

TEST_CASE("past the waiter cap a refresh gets the cached report at once, marked in progress", "[facts]") {
  ControlledProbe probe;
  FactsCache cache(probe.gather());
  cache.set_limits({0ms, 2});
  REQUIRE(cache.get(env(), false));
  probe.hold();
  std::vector<std::future<tl::expected<FactsCache::Entry, FactsCache::Unavailable>>> callers;
  for (int i = 0; i < 2; ++i) callers.push_back(std::async(std::launch::async, [&] { return cache.get(env(), true); }));
  wait_for_runs(probe, 2);
  REQUIRE(wait_for_waiters(cache, 2));  // both are waiting now
  auto extra = cache.get(env(), true);
  REQUIRE(extra);
  CHECK(extra->refresh == FactsCache::Refresh::in_progress);
  CHECK(extra->cached);
  probe.release();
  for (auto& c : callers) CHECK(c.get()->refresh == FactsCache::Refresh::done);
  CHECK(probe.runs == 2);
}

TEST_CASE("shutdown releases every waiter at once", "[facts]") {
  ControlledProbe probe;
  FactsCache cache(probe.gather());
  probe.hold();
  auto first = std::async(std::launch::async, [&] { return cache.get(env(), false); });
  wait_for_runs(probe, 1);
  auto start = std::chrono::steady_clock::now();
  cache.shutdown();
  auto answer = first.get();
  CHECK(std::chrono::steady_clock::now() - start < 500ms);
  REQUIRE_FALSE(answer);
  CHECK(answer.error().error == agent_api::ApiError::busy);
  probe.release();  // the destructor joins the run
}
