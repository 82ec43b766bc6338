#pragma once
// The bridge to tfwsl-agent (docs/agent-api.md, "Start-up"), the same on both platforms:
//   1. the host starts `<agent> serve --listen 127.0.0.1:0 --stdio-handshake`, kept alive for the
//      command's lifetime (closing its stdin ends the agent): through wsl.exe on Windows
//      (WslAgentHost), as a plain child on the native Linux build (LocalAgentHost);
//   2. a fresh 256-bit token on its stdin, never on a command line;
//   3. the handshake line: version and port. When the installed agent is missing or of another
//      version, the agent shipped next to tfwsl.exe is run instead, installing nothing: where it lies,
//      else from a temporary copy the run removes (AgentHost::start_shipped_agent); a host with
//      nothing else to run says how to fix it. An agent that starts but sends no handshake in time is
//      a timeout, not a reason to try another;
//   4. a challenge over the token proves that 127.0.0.1:<port> is our agent before the token is sent
//      there (any local process can bind a localhost port on Windows);
//   5. when localhost does not answer (or answers wrongly), requests go over the stdio frames of the
//      same child instead, and the session's link says so.
// Both the host and the loopback connector are ports: the unit tests drive the bridge with fakes.

#include <chrono>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "common/agent_api/handshake.hpp"
#include "win/agent_client/agent_host.hpp"
#include "win/agent_client/agent_link.hpp"
#include "win/agent_client/agent_transport.hpp"
#include "win/agent_client/child_channel.hpp"

namespace tfwsl::agent_client {

// Which agent answered: the one installed in the distro, or the one shipped with tfwsl, run without
// installing it (in place, or from a temporary copy).
enum class AgentOrigin { installed, shipped, shipped_copy };

struct BridgeOptions {
  std::string expected_version;  // the CLI's version: an agent of another version is not used
  std::chrono::milliseconds handshake_timeout{std::chrono::seconds(60)};  // the first start boots the VM
  std::chrono::milliseconds challenge_timeout{std::chrono::seconds(5)};
  // `serve --root DIR` each: the folders dataset jobs may read and write under (none: no imports).
  std::vector<std::string> roots;
};

class AgentSession {
 public:
  AgentSession(std::unique_ptr<ChildChannel> child, agent_api::HandshakeLine handshake, std::string where);
  ~AgentSession();
  AgentSession(const AgentSession&) = delete;
  AgentSession& operator=(const AgentSession&) = delete;

  // Serialised: the stdio transport answers in order, and HTTP needs no more than one at a time here.
  Result<AgentReply> get(const std::string& path, std::chrono::milliseconds timeout);
  // Any method ("GET", "POST"); a null body is sent as {} on a POST.
  Result<AgentReply> request(const std::string& method, const std::string& path, const nlohmann::json& body,
                             std::chrono::milliseconds timeout);

  const agent_api::HandshakeLine& handshake() const { return m_handshake; }
  const char* transport_name() const { return m_transport ? m_transport->name() : "none"; }
  AgentLink link() const { return m_link; }
  const std::string& localhost_problem() const { return m_localhost_problem; }
  AgentOrigin origin() const { return m_origin; }
  // The installed agent's version when it answered as another version than tfwsl's and the shipped
  // one ran instead ("0.1.0" after tfwsl was upgraded); empty otherwise. The doctor names it.
  const std::string& installed_version() const { return m_installed_version; }
  // "tfwsl-agent 0.1.0 in Ubuntu-22.04 over http (127.0.0.1:41234), run from /mnt/c/tfwsl/tfwsl-agent"
  std::string describe() const;

 private:
  friend Result<std::unique_ptr<AgentSession>> connect_agent(AgentHost&, LoopbackConnector&, const BridgeOptions&);
  std::unique_ptr<ChildChannel> m_child;
  agent_api::HandshakeLine m_handshake;
  std::string m_where;
  std::unique_ptr<AgentTransport> m_transport;
  AgentLink m_link = AgentLink::none;
  std::string m_localhost_problem;
  AgentOrigin m_origin = AgentOrigin::installed;
  std::string m_shipped_path;  // the shipped agent's path in the distro, when that one runs
  std::string m_installed_version;
  std::mutex m_mutex;
};

// Errors: not_found (no usable agent and none shipped, with the fix), timeout (it started but sent no
// handshake in time), process (the shipped agent did not start, in place nor from a temporary copy,
// or is of another version itself).
Result<std::unique_ptr<AgentSession>> connect_agent(AgentHost& host, LoopbackConnector& loopback,
                                                    const BridgeOptions& options);

// 64 hex digits from the OS's random source.
std::string make_token();

}  // namespace tfwsl::agent_client
