#pragma once
// How a command looks at this machine the way `tfwsl doctor` does: the host facts, wsl.exe,
// .wslconfig and the Linux side (the agent in the distro through wsl.exe on Windows, the agent as a
// child on the native Linux build), as a doctor::DoctorEnvironment. Shared by `tfwsl doctor` and
// `tfwsl profile diff|export`, so both see the same machine.

#include <memory>
#include <string>

#include "common/process/process_runner.hpp"
#include "win/doctor/doctor.hpp"
#include "win/host/host_probe.hpp"
#include "win/host/registry.hpp"
#include "win/tasks/machine.hpp"
#include "win/wsl/wsl_client.hpp"

namespace tfwsl::cli {

// The .wslconfig WSL reads (wslconfig::windows_wslconfig_path); empty path when it is not known.
doctor::WslconfigFacts read_wslconfig();

class MachineAccess {
 public:
  // `agent_option`: --agent (agent_locator.hpp), may be empty.
  MachineAccess(std::string agent_option, Machine& machine);
  MachineAccess(const MachineAccess&) = delete;
  MachineAccess& operator=(const MachineAccess&) = delete;

  bool is_windows() const { return m_system.is_windows; }
  // The sources for `distro` (--distro; empty: WSL's default). The policies are left default; the
  // functions use this object, which must outlive every use of the environment.
  doctor::DoctorEnvironment environment(const std::string& distro);

 private:
  doctor::LinuxSide wsl_linux_side(const std::string& distro);
  doctor::LinuxSide local_linux_side();

  ProcessRunner& m_runner;
  host::Registry& m_registry;
  host::SystemInfo m_system;
  wsl::WslClient& m_wsl;
  agent_client::ChildLauncher& m_launcher;
  agent_client::LoopbackConnector& m_loopback;
  std::string m_agent_option;
};

}  // namespace tfwsl::cli
