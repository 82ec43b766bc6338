#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

#include <spdlog/spdlog.h>

#include "linux/checks/linux_checks.hpp"
#include "linux/checks/probes.hpp"

namespace tfwsl::linux_checks {

namespace {

// Results land here; a timed-out probe's thread may still write later, so the state is shared and
// the caller copies out what finished under the lock.
struct GatherState {
  std::mutex mutex;
  std::condition_variable done;
  LinuxFacts facts;
  std::vector<std::string> pending;
};

}  // namespace

LinuxFacts gather_facts(const ProbeEnvironment& env) {
  auto state = std::make_shared<GatherState>();
  auto env_copy = std::make_shared<ProbeEnvironment>(env);
  using Setter = std::function<void(LinuxFacts&)>;
  struct Probe {
    std::string name;
    std::chrono::milliseconds limit;
    std::function<Setter(const ProbeEnvironment&)> run;
  };
  auto margin = std::chrono::seconds(2);
  std::vector<Probe> probes{
      {"wsl", env.probe_timeout, [](const ProbeEnvironment& e) -> Setter { auto r = probe_wsl(e); return [r](LinuxFacts& f) { f.wsl = r; }; }},
      {"gpu", env.probe_timeout, [](const ProbeEnvironment& e) -> Setter { auto r = probe_gpu(e); return [r](LinuxFacts& f) { f.gpu = r; }; }},
      {"linux-driver", env.probe_timeout, [](const ProbeEnvironment& e) -> Setter { auto r = probe_linux_driver(e); return [r](LinuxFacts& f) { f.driver = r; }; }},
      {"cuda-stack", env.probe_timeout, [](const ProbeEnvironment& e) -> Setter { auto r = probe_cuda_stack(e); return [r](LinuxFacts& f) { f.stack = r; }; }},
      {"tensorflow", env.tf_timeout, [](const ProbeEnvironment& e) -> Setter { auto r = probe_tensorflow(e); return [r](LinuxFacts& f) { f.tf = r; }; }},
      {"system", env.probe_timeout, [](const ProbeEnvironment& e) -> Setter { auto r = probe_system(e); return [r](LinuxFacts& f) { f.system = r; }; }},
  };
  auto start = std::chrono::steady_clock::now();
  std::chrono::milliseconds longest{0};
  {
    std::lock_guard lock(state->mutex);
    for (const auto& p : probes) state->pending.push_back(p.name);
  }
  for (const auto& p : probes) {
    longest = std::max(longest, p.limit);
    std::thread([state, env_copy, p] {
      Setter set;
      try {
        set = p.run(*env_copy);
      } catch (const std::exception& e) {
        spdlog::error("probe {} threw: {}", p.name, e.what());
      } catch (...) {
        spdlog::error("probe {} threw", p.name);
      }
      std::lock_guard lock(state->mutex);
      if (set) set(state->facts);
      state->pending.erase(std::remove(state->pending.begin(), state->pending.end(), p.name), state->pending.end());
      state->done.notify_all();
    }).detach();
  }
  std::unique_lock lock(state->mutex);
  // Each probe has its own limit; waiting for the longest (plus a margin for the child to be
  // killed) bounds the whole report. The shorter probes' limits are checked after.
  state->done.wait_until(lock, start + longest + margin, [&] { return state->pending.empty(); });
  LinuxFacts out = state->facts;
  out.timed_out = state->pending;
  if (!out.timed_out.empty())
    for (const auto& name : out.timed_out) spdlog::warn("probe '{}' ran past its time limit", name);
  return out;
}

}  // namespace tfwsl::linux_checks
