#pragma once
// What a push through the dataset engine needs on this side, set up once for `tfwsl data push` and
// `tfwsl migrate`'s copies: the agent connection (agent_connection.hpp), and on Windows the
// registry (the distro's ext4.vhdx) and the host drives' free space, from the machine's ports.

#include <memory>

#include "win/host/registry.hpp"
#include "win/push/host_free_space.hpp"
#include "win/push/push_plan.hpp"
#include "win/tasks/agent_connection.hpp"
#include "win/tasks/machine.hpp"

namespace tfwsl::cli {

class PushSetup {
 public:
  PushSetup(AgentConnectionSettings settings, Machine& machine);
  PushSetup(const PushSetup&) = delete;
  PushSetup& operator=(const PushSetup&) = delete;

  push::PushEnvironment& env() { return m_env; }

 private:
  AgentConnection m_connection;
  std::unique_ptr<push::FreeSpace> m_free_space;
  push::PushEnvironment m_env;
};

}  // namespace tfwsl::cli
