#pragma once
// The machine tfwsl works on, as ports: built once, by the program's main (win/app/system_machine.hpp)
// or by a test, and passed down from the command registry to each verb and the tasks it asks. No
// verb or task builds a port of its own (layering.one-machine), so a test program stands in for any
// part of the machine by building the Machine with its own port, and the shipped program reads no
// test setting.

#include <cstdint>
#include <string>

#include "common/core/clock.hpp"
#include "common/core/error.hpp"
#include "common/process/process_runner.hpp"
#include "win/agent_client/agent_transport.hpp"
#include "win/agent_client/child_channel.hpp"
#include "win/host/host_probe.hpp"
#include "win/host/registry.hpp"
#include "win/platform/attached_process.hpp"
#include "win/wsl/wsl_client.hpp"

namespace tfwsl::cli {

// The host's shape: what Windows says of itself, the host drive's room, and where this Linux mounts
// the Windows drives when tfwsl runs natively.
class HostPort {
 public:
  virtual ~HostPort() = default;
  // Windows' build, RAM and virtualization (is_windows false on the native Linux build).
  virtual const host::SystemInfo& system() = 0;
  virtual unsigned logical_processors() = 0;
  // The free bytes of the host drive holding `path` (data push's and migrate's room check).
  // Errors: io naming the path and the system's message.
  virtual Result<std::uint64_t> free_bytes(const std::string& path) = 0;
  // Where the Windows drives are mounted ("/mnt/"): migrate maps the Windows paths a project names
  // through it. On Windows a Windows path is itself, and this is the automount default.
  virtual std::string drive_root() = 0;
};

struct Machine {
  ProcessRunner& processes;  // every program tfwsl starts
  AttachedRunner& attached;  // a program that takes over the terminal (tfwsl run, tfwsl shell)
  wsl::WslClient& wsl;       // wsl.exe, located once from the environment
  HostPort& host;
  host::Registry& registry;  // the Windows registry (empty on the native Linux build)
  const Clock& clock;
  // How the agent is reached: its process started (through wsl.exe, or as a child natively) and
  // its loopback HTTP connected to.
  agent_client::ChildLauncher& agent_launcher;
  agent_client::LoopbackConnector& agent_loopback;
};

}  // namespace tfwsl::cli
