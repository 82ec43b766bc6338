#pragma once
// What the agent's handlers share: identity, the dataset roots, the probe environment and the cached
// check results. One per process; route files (core_routes.cpp, dataset_routes.cpp) take it by reference.

#include <chrono>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "common/dataset/job_limits.hpp"
#include "linux/checks/linux_checks.hpp"

namespace tfwsl::agent {

// /v1/checks' cache: one probe run at a time (concurrent callers wait for it and share the result).
class FactsCache {
 public:
  struct Entry {
    linux_checks::LinuxFacts facts;
    std::chrono::system_clock::time_point probed_at;
    bool cached = false;  // served from the cache, not probed for this call
  };
  Entry get(const linux_checks::ProbeEnvironment& env, bool refresh);

 private:
  std::mutex m_mutex;
  std::optional<Entry> m_entry;
};

struct AgentContext {
  std::string version = TFWSL_VERSION;
  std::chrono::steady_clock::time_point started = std::chrono::steady_clock::now();
  std::string token;  // the bearer token (never logged); also keys the challenge proof
  int port = 0;
  // --root DIR (repeatable): dataset sources and targets must resolve under one of these.
  std::vector<std::filesystem::path> roots;
  // How many imports run at once, their threads, how long finished jobs are kept (dataset_routes.cpp).
  dataset::JobLimits import_limits;
  linux_checks::ProbeEnvironment probe_env;
  linux_checks::CheckPolicy policy;
  FactsCache facts;
};

}  // namespace tfwsl::agent
