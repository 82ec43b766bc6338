#pragma once
// What the agent's handlers share: identity, the dataset roots, the probe environment and the cached
// facts. One per process; route files (core_routes.cpp, dataset_routes.cpp) take it by reference.

#include <chrono>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

#include "common/judge/check_policy.hpp"
#include "linux/agent/facts_cache.hpp"
#include "linux/checks/linux_checks.hpp"
#include "linux/dataset/job_limits.hpp"

namespace tfwsl::agent {

struct AgentContext {
  std::string version = TFWSL_VERSION;
  std::chrono::steady_clock::time_point started = std::chrono::steady_clock::now();
  std::string token;  // the bearer token (never logged); also keys the challenge proof
  int port = 0;
  // --root DIR (repeatable): dataset sources and targets must resolve under one of these.
  std::vector<std::filesystem::path> roots;
  // How many imports run at once, their threads, how long finished jobs are kept (dataset_routes.cpp).
  dataset::JobLimits import_limits;
  // serve's probes run their children through a StoppableProcessRunner on this source's token: the
  // agent stopping ends a probe run in flight at once, so the cache's join does not wait for it.
  std::stop_source probe_stop;
  linux_checks::ProbeEnvironment probe_env;
  judge::CheckPolicy policy;  // serve --profile: judges /v1/checks only; /v1/facts is not judged here
  FactsCache facts;
};

}  // namespace tfwsl::agent
