#pragma once
// The real machine, built once by the program's main (program_main.hpp) and passed to run_cli: the
// system's process runner, wsl.exe located from the environment, the host as Windows describes
// itself, the registry, the steady clock, and the agent's process launcher and loopback connector. A test program
// builds a SystemMachine and stands in for the host's figures it must control (tests/helpers/test_mains: a 16 GB host,
// a full drive).

#include <memory>
#include <optional>
#include <string>

#include "common/process/process_runner.hpp"
#include "win/push/host_free_space.hpp"
#include "win/tasks/machine.hpp"

namespace tfwsl::cli {

// The host as Windows (or, on the native Linux build, this Linux) says it is; each figure read once.
class SystemHost : public HostPort {
 public:
  explicit SystemHost(ProcessRunner& processes);
  const host::SystemInfo& system() override;
  unsigned logical_processors() override;
  Result<std::uint64_t> free_bytes(const std::string& path) override;
  std::string drive_root() override;

 private:
  ProcessRunner& m_processes;
  std::optional<host::SystemInfo> m_system;
  std::optional<std::string> m_drive_root;
  std::unique_ptr<push::FreeSpace> m_free_space;
};

class SystemMachine {
 public:
  SystemMachine();
  SystemMachine(const SystemMachine&) = delete;
  SystemMachine& operator=(const SystemMachine&) = delete;
  // The machine with every port real, or with `host` standing in for the host (a test program's).
  Machine machine();
  Machine machine(HostPort& host);
  SystemHost& system_host() { return m_host; }

 private:
  SystemProcessRunner m_processes;
  SystemAttachedRunner m_attached;
  wsl::WslClient m_wsl;
  SystemHost m_host;
  std::unique_ptr<host::Registry> m_registry;
  SteadyClock m_clock;
  agent_client::SystemChildLauncher m_agent_launcher;
  agent_client::HttpLoopbackConnector m_agent_loopback;
};

}  // namespace tfwsl::cli
