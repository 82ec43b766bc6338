#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <exception>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "linux/checks/linux_checks.hpp"
#include "linux/checks/probes.hpp"

namespace tfwsl::linux_checks {

namespace {

using Clock = std::chrono::steady_clock;
using Setter = std::function<void(LinuxFacts&)>;

struct Probe {
  std::string name;
  std::chrono::milliseconds limit;
  std::function<Setter(const ProbeEnvironment&)> run;
};

// What one probe's thread leaves behind: its part (none when it threw or timed out) and when.
struct Finished {
  Setter set;
  bool timed_out = false;
  Clock::time_point at;
};

std::vector<Probe> all_probes(const ProbeEnvironment& env) {
  return {
      {"wsl", env.probe_timeout,
       [](const ProbeEnvironment& e) -> Setter {
         auto r = probe_wsl(e);
         return [r](LinuxFacts& f) { f.wsl = r; };
       }},
      {"gpu", env.probe_timeout,
       [](const ProbeEnvironment& e) -> Setter {
         auto r = probe_gpu(e);
         return [r](LinuxFacts& f) { f.gpu = r; };
       }},
      {"linux-driver", env.probe_timeout,
       [](const ProbeEnvironment& e) -> Setter {
         auto r = probe_linux_driver(e);
         return [r](LinuxFacts& f) { f.driver = r; };
       }},
      {"cuda-stack", env.probe_timeout,
       [](const ProbeEnvironment& e) -> Setter {
         auto r = probe_cuda_stack(e);
         return [r](LinuxFacts& f) { f.stack = r; };
       }},
      {"tensorflow", env.tf_timeout,
       [](const ProbeEnvironment& e) -> Setter {
         auto r = probe_tensorflow(e);
         return [r](LinuxFacts& f) { f.tf = r; };
       }},
      {"system", env.probe_timeout,
       [](const ProbeEnvironment& e) -> Setter {
         auto r = probe_system(e);
         return [r](LinuxFacts& f) { f.system = r; };
       }},
  };
}

Finished run_probe(const Probe& p, const ProbeEnvironment& env) {
  Finished out;
  try {
    out.set = p.run(env);
  } catch (const ProbeTimedOut& e) {
    spdlog::warn("probe {}: {}", p.name, e.what());
    out.timed_out = true;
  } catch (const std::exception& e) {
    spdlog::error("probe {} threw: {}", p.name, e.what());
  } catch (...) {
    spdlog::error("probe {} threw", p.name);
  }
  out.at = Clock::now();
  return out;
}

}  // namespace

LinuxFacts gather_facts(const ProbeEnvironment& env) {
  const auto probes = all_probes(env);
  std::vector<Finished> finished(probes.size());
  const auto start = Clock::now();
  {
    // Each thread writes its own slot; all are joined here. That wait is bounded: every child a
    // probe runs is killed at its limit, and the libraries are loaded in one (library_probes.hpp).
    std::vector<std::jthread> threads;
    threads.reserve(probes.size());
    for (std::size_t i = 0; i < probes.size(); ++i)
      threads.emplace_back([&, i] { finished[i] = run_probe(probes[i], env); });
  }
  // As before the probes were joined: the whole report is bounded by the longest limit plus a
  // margin for a child to be killed; a probe that finished past that counts as timed out too.
  std::chrono::milliseconds longest{0};
  for (const auto& p : probes) longest = std::max(longest, p.limit);
  const auto deadline = start + longest + std::chrono::seconds(2);
  LinuxFacts out;
  for (std::size_t i = 0; i < probes.size(); ++i) {
    if (finished[i].timed_out || finished[i].at > deadline)
      out.timed_out.push_back(probes[i].name);
    else if (finished[i].set)
      finished[i].set(out);
  }
  for (const auto& name : out.timed_out) spdlog::warn("probe '{}' ran past its time limit", name);
  return out;
}

}  // namespace tfwsl::linux_checks
