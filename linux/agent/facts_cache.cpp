#include "linux/agent/facts_cache.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <exception>

namespace tfwsl::agent {

using agent_api::ApiError;

namespace {

// gather_facts waits for its slowest probe's limit plus a 2 s margin; one more second for the
// hand-over. Past that a waiter stops waiting whatever the run does.
std::chrono::milliseconds probe_run_bound(const linux_checks::ProbeEnvironment& env) {
  return std::max(env.probe_timeout, env.tf_timeout) + std::chrono::seconds(3);
}

}  // namespace

const char* refresh_name(FactsCache::Refresh refresh) {
  switch (refresh) {
    case FactsCache::Refresh::done:
      return "done";
    case FactsCache::Refresh::rate_limited:
      return "rate_limited";
    case FactsCache::Refresh::in_progress:
      return "in_progress";
    case FactsCache::Refresh::not_asked:
      break;
  }
  return "not_asked";
}

FactsCache::FactsCache(Gather gather) : m_gather(std::move(gather)), m_clock(m_steady) {}

FactsCache::FactsCache(Gather gather, const Clock& clock) : m_gather(std::move(gather)), m_clock(clock) {}

std::size_t FactsCache::waiting() const {
  std::lock_guard lock(m_mutex);
  return m_waiters;
}

FactsCache::~FactsCache() {
  shutdown();
  if (m_runner.joinable()) m_runner.join();
}

void FactsCache::set_limits(FactsCacheLimits limits) {
  std::lock_guard lock(m_mutex);
  m_limits = limits;
}

void FactsCache::shutdown() {
  {
    std::lock_guard lock(m_mutex);
    m_stopping = true;
  }
  m_finished.notify_all();
}

FactsCache::Entry FactsCache::snapshot(bool cached, Refresh refresh) const {
  auto age = std::chrono::duration_cast<std::chrono::milliseconds>(m_clock.now() - m_finished_at);
  return Entry{*m_entry, m_probed_at, cached, refresh, age};
}

tl::expected<FactsCache::Entry, FactsCache::Unavailable> FactsCache::get(const linux_checks::ProbeEnvironment& env,
                                                                         bool refresh) {
  std::unique_lock lock(m_mutex);
  auto now = m_clock.now();
  if (m_entry && (!refresh || m_stopping)) return snapshot(true, refresh ? Refresh::in_progress : Refresh::not_asked);
  if (m_stopping) return tl::unexpected(Unavailable{ApiError::busy, "the agent is stopping"});
  if (m_entry && !m_running && now - m_finished_at < m_limits.min_refresh_interval)
    return snapshot(true, Refresh::rate_limited);
  if (!m_running) start_run(env);
  if (m_waiters >= m_limits.max_waiters) {
    if (m_entry) return snapshot(true, Refresh::in_progress);
    return tl::unexpected(Unavailable{ApiError::busy, "the first probe run is under way: retry in a few seconds"});
  }
  auto awaited = m_runs_finished + 1;  // the run in flight
  ++m_waiters;
  // The wait itself is real time (a blocked thread), whatever clock the ages are read from.
  m_finished.wait_for(lock, probe_run_bound(env), [&] { return m_runs_finished >= awaited || m_stopping; });
  --m_waiters;
  if (m_runs_finished >= awaited && m_entry) return snapshot(false, refresh ? Refresh::done : Refresh::not_asked);
  if (m_entry) return snapshot(true, Refresh::in_progress);
  if (m_stopping) return tl::unexpected(Unavailable{ApiError::busy, "the agent is stopping"});
  if (m_runs_finished >= awaited) return tl::unexpected(Unavailable{ApiError::internal, "the probe run failed"});
  return tl::unexpected(Unavailable{ApiError::timeout, "the probes did not finish within their time limits"});
}

void FactsCache::start_run(const linux_checks::ProbeEnvironment& env) {
  // The previous run's thread has published (m_running is false): all it has left is a notify.
  if (m_runner.joinable()) m_runner.join();
  m_running = true;
  m_runner = std::thread([this, env] { run(env); });
}

void FactsCache::run(linux_checks::ProbeEnvironment env) {
  std::optional<linux_checks::LinuxFacts> facts;
  try {
    facts = m_gather(env);
  } catch (const std::exception& e) {
    spdlog::error("the probe run failed: {}", e.what());
  }
  {
    std::lock_guard lock(m_mutex);
    if (facts) {
      m_entry = std::move(*facts);
      m_probed_at = std::chrono::system_clock::now();
      m_finished_at = m_clock.now();
    }
    ++m_runs_finished;
    m_running = false;
  }
  m_finished.notify_all();
}

}  // namespace tfwsl::agent
