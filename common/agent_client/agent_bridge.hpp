#pragma once
// The bridge to tfwsl-agent (../shared/DESIGN.md, "The bridge"; docs/agent-api.md):
//   1. wsl.exe -d D --exec <agent> serve --listen 127.0.0.1:0 --stdio-handshake, kept alive for the
//      command's lifetime (closing its stdin ends the agent);
//   2. a fresh 256-bit token on its stdin, never on a command line;
//   3. the handshake line: version and port. A missing agent or another version: the agent shipped
//      next to tfwsl.exe is installed (through the distro's view of its Windows path) and started again;
//   4. an HMAC challenge over the token proves that 127.0.0.1:<port> is our agent before the token is
//      sent there (any local process can bind a localhost port on Windows);
//   5. when localhost does not answer (or answers wrongly), requests go over the stdio frames of the
//      same wsl.exe child instead, and the session says so (wsl.localhost-forwarding).

#include <chrono>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "common/agent_api/handshake.hpp"
#include "common/agent_client/agent_transport.hpp"
#include "common/agent_client/child_channel.hpp"
#include "common/wsl/wsl_client.hpp"

namespace tfwsl::agent_client {

// Where the agent lives inside the distro unless TFWSL_AGENT_PATH says otherwise.
inline constexpr const char* k_default_agent_path = "/usr/local/lib/tfwsl/tfwsl-agent";
inline constexpr const char* k_agent_path_env = "TFWSL_AGENT_PATH";

struct BridgeOptions {
  std::string distro;                 // empty: the default distribution
  std::string agent_path = k_default_agent_path;  // Linux path inside the distro
  std::string shipped_agent;          // Windows path of the tfwsl-agent next to tfwsl.exe; empty: cannot deploy
  std::string expected_version;       // the CLI's version: another agent version is redeployed
  std::string profile;                // a built-in profile name for the agent's checks; empty: its default
  std::chrono::milliseconds handshake_timeout{std::chrono::seconds(60)};  // the first start boots the VM
  std::chrono::milliseconds challenge_timeout{std::chrono::seconds(5)};
};

enum class LocalhostState { ok, not_answering, impostor };

class AgentSession {
 public:
  AgentSession(std::unique_ptr<ChildChannel> child, agent_api::HandshakeLine handshake, std::string token);
  ~AgentSession();

  // Serialised: the stdio transport answers in order, and HTTP needs no more than one at a time here.
  Result<AgentReply> get(const std::string& path, std::chrono::milliseconds timeout);

  const agent_api::HandshakeLine& handshake() const { return m_handshake; }
  const char* transport_name() const { return m_transport ? m_transport->name() : "none"; }
  LocalhostState localhost() const { return m_localhost; }
  const std::string& localhost_problem() const { return m_localhost_problem; }
  bool deployed() const { return m_deployed; }

 private:
  friend Result<std::unique_ptr<AgentSession>> connect_agent(wsl::WslClient&, ChildLauncher&, const BridgeOptions&);
  std::unique_ptr<ChildChannel> m_child;
  agent_api::HandshakeLine m_handshake;
  std::string m_token;
  std::unique_ptr<AgentTransport> m_transport;
  LocalhostState m_localhost = LocalhostState::ok;
  std::string m_localhost_problem;
  bool m_deployed = false;
  std::mutex m_mutex;
};

Result<std::unique_ptr<AgentSession>> connect_agent(wsl::WslClient& wsl, ChildLauncher& launcher,
                                                    const BridgeOptions& options);

// "C:\\Users\\me\\tfwsl\\tfwsl-agent" -> "/mnt/c/Users/me/tfwsl/tfwsl-agent" (WSL's default automount
// root); empty for a path without a drive letter (UNC paths are not mounted there).
std::string distro_view_of_windows_path(const std::string& windows_path);

// 64 hex digits from the OS's random source.
std::string make_token();

}  // namespace tfwsl::agent_client
