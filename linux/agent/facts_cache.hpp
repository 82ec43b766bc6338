#pragma once
// The agent's cache of probe results (/v1/facts, /v1/checks, /v1/gpu and /v1/stack). A probe run
// can take minutes (a TensorFlow import under its time limit), so:
//   - it runs on the cache's own thread, never under a lock that a reader needs: a cached answer
//     is a copy taken under a short lock, whatever is running;
//   - one run at a time however many ask (single flight): a refresh that finds one running waits
//     for that one, at most `max_waiters` callers wait at once (the rest get the cached report,
//     marked in_progress), and no wait outlasts the run's own time limit;
//   - a refresh of a report younger than `min_refresh_interval` answers that report (rate_limited);
//     ages are read from a Clock port (tests move a ManualClock instead of sleeping);
//   - shutdown() wakes every waiter at once; a run still going is not waited for there, but the
//     destructor joins it (bounded: gather_facts joins probes whose children die at their limits).

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <tl/expected.hpp>

#include "common/agent_api/api_error.hpp"
#include "common/core/clock.hpp"
#include "linux/checks/linux_checks.hpp"

namespace tfwsl::agent {

struct FactsCacheLimits {
  std::chrono::milliseconds min_refresh_interval{std::chrono::seconds(5)};
  std::size_t max_waiters = 4;
};

class FactsCache {
 public:
  using Gather = std::function<linux_checks::LinuxFacts(const linux_checks::ProbeEnvironment&)>;
  enum class Refresh { not_asked, done, rate_limited, in_progress };
  struct Entry {
    linux_checks::LinuxFacts facts;
    std::chrono::system_clock::time_point probed_at;
    bool cached = false;  // not probed for this call
    Refresh refresh = Refresh::not_asked;
    std::chrono::milliseconds age{0};  // since the probe run finished
  };
  struct Unavailable {
    agent_api::ApiError error;  // busy (no report yet and too many waiting, or stopping), timeout
    std::string message;
  };

  explicit FactsCache(Gather gather = linux_checks::gather_facts);  // ages on the steady clock
  FactsCache(Gather gather, const Clock& clock);
  ~FactsCache();  // shutdown(), then joins the run thread (bounded by the run's own limits)
  FactsCache(const FactsCache&) = delete;
  FactsCache& operator=(const FactsCache&) = delete;

  void set_limits(FactsCacheLimits limits);
  tl::expected<Entry, Unavailable> get(const linux_checks::ProbeEnvironment& env, bool refresh);
  void shutdown();
  // How many callers wait for the run in flight now (at most max_waiters): what /v1/checks
  // callers are queued behind, and what a test waits for instead of sleeping.
  std::size_t waiting() const;

 private:
  void start_run(const linux_checks::ProbeEnvironment& env);  // with m_mutex held
  void run(linux_checks::ProbeEnvironment env);
  Entry snapshot(bool cached, Refresh refresh) const;  // with m_mutex held, m_entry set

  Gather m_gather;
  SteadyClock m_steady;
  const Clock& m_clock;
  FactsCacheLimits m_limits;
  mutable std::mutex m_mutex;
  std::condition_variable m_finished;
  std::optional<linux_checks::LinuxFacts> m_entry;
  std::chrono::system_clock::time_point m_probed_at;
  std::chrono::steady_clock::time_point m_finished_at;
  std::uint64_t m_runs_finished = 0;
  bool m_running = false;
  bool m_stopping = false;
  std::size_t m_waiters = 0;
  std::thread m_runner;
};

const char* refresh_name(FactsCache::Refresh refresh);

}  // namespace tfwsl::agent
