#pragma once
// What `tfwsl data push` asks of the agent (docs/agent-api.md, docs/datasets.md "Agent API"): a
// port, so that the push's logic is tested with a fake agent (tests/unit/push) and runs for real over
// the bridge (session_push_agent.hpp). The agent is started twice per push: once without data roots
// to resolve the source and read the distro's facts, then with exactly the source and the target's
// root as its --root folders for the job (nothing else can be read or written through it).

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/agent_api/api_types.hpp"
#include "common/core/error.hpp"
#include "win/push/job_state.hpp"

namespace tfwsl::push {

struct JobStart {
  std::string source;  // Linux paths, absolute
  std::string target;
  bool move = false;
  bool verify = false;
  unsigned jobs = 16;
  std::vector<std::string> exclude;  // names the job leaves out; sent only when there are some
};

class PushAgent {
 public:
  virtual ~PushAgent() = default;
  // "tfwsl-agent 0.1.0 in Ubuntu over http (...)", for the log.
  virtual std::string describe() const = 0;
  // POST /v1/paths/resolve. Errors carry the agent's message (UNC paths, drives not mounted).
  virtual Result<agent_api::PathResolveResponse> resolve(const std::string& windows_path) = 0;
  virtual Result<agent_api::InfoResponse> info() = 0;
  // The free bytes of the distro's own filesystem (GET /v1/facts, system.disk_free_bytes); nullopt
  // with `why` filled when the agent could not measure it.
  virtual Result<std::optional<std::uint64_t>> distro_free_bytes(std::string& why) = 0;
  virtual Result<JobState> start(const JobStart& job) = 0;
  virtual Result<JobState> status(const std::string& id) = 0;
  virtual Status cancel(const std::string& id) = 0;
};

// Starts an agent whose dataset jobs may use `roots` (none: no jobs at all).
using PushAgentConnector = std::function<Result<std::unique_ptr<PushAgent>>(const std::vector<std::string>& roots)>;

}  // namespace tfwsl::push
