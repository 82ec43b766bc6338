#include "win/app/system_machine.hpp"

#include <thread>

#include "common/wsl/drive_path.hpp"
#include "win/platform/host_platform.hpp"
#include "win/wsl/automount_query.hpp"

namespace tfwsl::cli {

SystemHost::SystemHost(ProcessRunner& processes)
    : m_processes(processes), m_free_space(push::make_system_free_space()) {}

const host::SystemInfo& SystemHost::system() {
  if (!m_system) m_system = read_system_info();
  return *m_system;
}

unsigned SystemHost::logical_processors() {
  const unsigned cpus = std::thread::hardware_concurrency();
  return cpus > 0 ? cpus : 1;
}

Result<std::uint64_t> SystemHost::free_bytes(const std::string& path) { return m_free_space->free_bytes(path); }

// On Windows a Windows path is itself; natively, the Linux here is asked (wslpath), once.
std::string SystemHost::drive_root() {
  if (system().is_windows) return wsl::k_default_automount_root;
  if (!m_drive_root) m_drive_root = wsl::local_automount_root(m_processes);
  return *m_drive_root;
}

SystemMachine::SystemMachine()
    : m_wsl(m_processes, wsl::wsl_settings_from_environment()),
      m_host(m_processes),
      m_registry(make_system_registry()) {}

Machine SystemMachine::machine() { return machine(m_host); }

Machine SystemMachine::machine(HostPort& host) {
  return Machine{m_processes, m_attached, m_wsl, host, *m_registry, m_clock, m_agent_launcher, m_agent_loopback};
}

}  // namespace tfwsl::cli
