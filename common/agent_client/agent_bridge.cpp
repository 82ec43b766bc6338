#include "common/agent_client/agent_bridge.hpp"

#include <cctype>
#include <random>

#include <spdlog/spdlog.h>

#include "common/agent_api/challenge.hpp"

namespace tfwsl::agent_client {
namespace {

struct StartAttempt {
  std::unique_ptr<ChildChannel> child;
  std::optional<agent_api::HandshakeLine> handshake;
  std::string problem;  // why there is no handshake
};

StartAttempt start_agent(wsl::WslClient& wsl, ChildLauncher& launcher, const BridgeOptions& options,
                         const std::string& token) {
  StartAttempt attempt;
  std::vector<std::string> command{options.agent_path, "serve", "--listen", "127.0.0.1:0", "--stdio-handshake"};
  if (!options.profile.empty()) command.insert(command.end(), {"--profile", options.profile});
  auto argv = wsl.exec_argv({options.distro, "", ""}, command);
  wsl.count_start();
  auto child = launcher.start(argv, wsl::WslClient::child_environment());
  if (!child) {
    attempt.problem = child.error().describe();
    return attempt;
  }
  attempt.child = std::move(*child);
  if (auto written = attempt.child->write(token + "\n"); !written) {
    // The child may already be gone (no agent there); its stderr says why.
  }
  auto line = attempt.child->read_line(options.handshake_timeout);
  if (!line) {
    attempt.child->finish(std::chrono::seconds(2));
    std::string err = attempt.child->stderr_text();
    attempt.problem = line.error().message + (err.empty() ? "" : ": " + err.substr(0, 300));
    return attempt;
  }
  auto handshake = agent_api::parse_handshake_line(*line);
  if (!handshake) {
    attempt.problem = "the agent's first line is not a handshake: " + handshake.error().message;
    attempt.child->finish(std::chrono::seconds(2));
    return attempt;
  }
  attempt.handshake = *handshake;
  return attempt;
}

Status deploy_agent(wsl::WslClient& wsl, const BridgeOptions& options) {
  std::string source = distro_view_of_windows_path(options.shipped_agent);
  if (source.empty()) {
    return make_error(ErrorCode::not_found, "cannot deploy the agent: '" + options.shipped_agent +
                                                "' is not on a drive the distro mounts");
  }
  spdlog::info("installing tfwsl-agent {} into {} at {}", options.expected_version, options.distro, options.agent_path);
  auto reply = wsl.exec({options.distro, "root", ""}, {"install", "-D", "-m", "0755", source, options.agent_path});
  if (!reply) return tl::unexpected(reply.error());
  if (reply->exit_code != 0) {
    return make_error(ErrorCode::process, "installing the agent into " + options.distro + " failed: " +
                                              (reply->failure.message.empty() ? reply->err_text : reply->failure.message));
  }
  return {};
}

}  // namespace

std::string make_token() {
  std::random_device random;
  static const char* k_hex = "0123456789abcdef";
  std::string token;
  for (int i = 0; i < 8; ++i) {
    std::uint32_t word = random();
    for (int j = 0; j < 8; ++j) token += k_hex[(word >> (4 * j)) & 0xF];
  }
  return token;
}

std::string distro_view_of_windows_path(const std::string& windows_path) {
  if (windows_path.size() < 3 || !std::isalpha(static_cast<unsigned char>(windows_path[0])) || windows_path[1] != ':' ||
      (windows_path[2] != '\\' && windows_path[2] != '/'))
    return {};
  std::string out = "/mnt/";
  out += static_cast<char>(std::tolower(static_cast<unsigned char>(windows_path[0])));
  for (std::size_t i = 2; i < windows_path.size(); ++i) out += windows_path[i] == '\\' ? '/' : windows_path[i];
  return out;
}

AgentSession::AgentSession(std::unique_ptr<ChildChannel> child, agent_api::HandshakeLine handshake, std::string token)
    : m_child(std::move(child)), m_handshake(std::move(handshake)), m_token(std::move(token)) {}

AgentSession::~AgentSession() {
  m_transport.reset();
  if (m_child) m_child->finish(std::chrono::seconds(5));
}

Result<AgentReply> AgentSession::get(const std::string& path, std::chrono::milliseconds timeout) {
  std::lock_guard lock(m_mutex);
  if (!m_transport) return make_error(ErrorCode::internal, "no agent transport");
  return m_transport->request("GET", path, nullptr, timeout);
}

Result<std::unique_ptr<AgentSession>> connect_agent(wsl::WslClient& wsl, ChildLauncher& launcher,
                                                    const BridgeOptions& options) {
  const std::string token = make_token();
  auto attempt = start_agent(wsl, launcher, options, token);
  bool deployed = false;
  bool wrong_version = attempt.handshake && !options.expected_version.empty() &&
                       attempt.handshake->agent != options.expected_version;
  if (!attempt.handshake || wrong_version) {
    std::string why = wrong_version ? "agent " + attempt.handshake->agent + " is installed, tfwsl " +
                                          options.expected_version + " needs its own version"
                                    : attempt.problem;
    if (attempt.child) attempt.child->finish(std::chrono::seconds(3));
    if (options.shipped_agent.empty()) {
      return make_error(ErrorCode::not_found, "the agent could not be started in " + options.distro + " (" + why +
                                                  ") and no tfwsl-agent ships next to tfwsl.exe to install");
    }
    spdlog::info("agent not usable ({}); installing the shipped one", why);
    if (auto status = deploy_agent(wsl, options); !status) {
      auto e = status.error();
      e.context.push_back("starting the agent after: " + why);
      return tl::unexpected(e);
    }
    deployed = true;
    attempt = start_agent(wsl, launcher, options, token);
    if (!attempt.handshake) {
      return make_error(ErrorCode::process, "the agent installed in " + options.distro + " did not start: " + attempt.problem);
    }
  }
  auto session = std::make_unique<AgentSession>(std::move(attempt.child), *attempt.handshake, token);
  session->m_deployed = deployed;

  // Is 127.0.0.1:<port> our agent? Ask for the proof before the token goes there.
  auto http = std::make_unique<HttpAgentTransport>(session->m_handshake.port, token);
  std::string nonce = make_token();
  auto proof = http->challenge(nonce, options.challenge_timeout);
  const std::string where = "127.0.0.1:" + std::to_string(session->m_handshake.port);
  if (proof && agent_api::verify_challenge_proof(token, nonce, *proof)) {
    session->m_transport = std::move(http);
  } else {
    if (!proof && proof.error().code == ErrorCode::io) {
      session->m_localhost = LocalhostState::not_answering;
      session->m_localhost_problem = where + " does not answer from Windows (" + proof.error().message + ")";
    } else {
      session->m_localhost = LocalhostState::impostor;
      session->m_localhost_problem =
          "another program answers on " + where + (proof ? ": its challenge proof is wrong" : ": " + proof.error().message);
    }
    spdlog::warn("{}; using the agent's stdio channel instead", session->m_localhost_problem);
    session->m_transport = std::make_unique<StdioAgentTransport>(*session->m_child);
  }
  return session;
}

}  // namespace tfwsl::agent_client
