#include "common/agent_client/agent_bridge.hpp"

#include <optional>
#include <random>

#include <spdlog/spdlog.h>

#include "common/agent_api/challenge.hpp"

namespace tfwsl::agent_client {
namespace {

struct StartAttempt {
  std::unique_ptr<ChildChannel> child;
  std::optional<agent_api::HandshakeLine> handshake;
  std::string problem;     // why there is no handshake
  bool timed_out = false;  // it started but said nothing in time
};

// No --profile: the CLI judges the agent's facts with its own policy (common/judge).
std::vector<std::string> serve_args() {
  return {"serve", "--listen", "127.0.0.1:0", "--stdio-handshake"};
}

std::string seconds(std::chrono::milliseconds ms) {
  if (ms.count() % 1000 == 0) return std::to_string(ms.count() / 1000) + " s";
  return std::to_string(ms.count()) + " ms";
}

StartAttempt start_agent(AgentHost& host, const BridgeOptions& options, const std::string& token) {
  StartAttempt attempt;
  auto child = host.start_agent(serve_args());
  if (!child) {
    attempt.problem = child.error().describe();
    return attempt;
  }
  attempt.child = std::move(*child);
  // A child that is already gone (no agent there) fails this write; its stderr says why.
  (void)attempt.child->write(token + "\n");
  auto line = attempt.child->read_line(options.handshake_timeout);
  if (!line) {
    attempt.timed_out = line.error().code == ErrorCode::timeout;
    attempt.child->finish(std::chrono::seconds(2));
    std::string err = attempt.child->stderr_text().substr(0, 300);
    while (!err.empty() && (err.back() == '\n' || err.back() == '\r')) err.pop_back();
    attempt.problem = (attempt.timed_out ? "it sent no handshake within " + seconds(options.handshake_timeout)
                                         : line.error().message) +
                      (err.empty() ? "" : ": " + err);
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

// Why the agent that answered (or did not) has to be installed afresh; nothing when it is usable.
std::optional<std::string> reason_to_install(const StartAttempt& attempt, const BridgeOptions& options) {
  if (!attempt.handshake) return attempt.problem;
  if (!options.expected_version.empty() && attempt.handshake->agent != options.expected_version) {
    return "agent " + attempt.handshake->agent + " is installed, tfwsl " + options.expected_version +
           " needs its own version";
  }
  return std::nullopt;
}

Result<StartAttempt> start_or_install(AgentHost& host, const BridgeOptions& options, const std::string& token,
                                      bool& installed) {
  installed = false;
  auto attempt = start_agent(host, options, token);
  if (attempt.timed_out) {
    return make_error(ErrorCode::timeout, "tfwsl-agent " + host.where() + " started but " + attempt.problem +
                                              (host.forwards_localhost()
                                                   ? ": run 'wsl --shutdown' and try again (a stuck WSL VM is the usual cause)"
                                                   : ": check that it runs there (tfwsl-agent --version)"));
  }
  auto why = reason_to_install(attempt, options);
  if (!why) return attempt;
  if (attempt.child) attempt.child->finish(std::chrono::seconds(3));
  spdlog::info("agent not usable ({}); installing the shipped one", *why);
  if (auto status = host.install_agent(); !status) {
    auto e = status.error();
    e.message = "the agent could not be started " + host.where() + " (" + *why + "): " + e.message;
    return tl::unexpected(e);
  }
  installed = true;
  attempt = start_agent(host, options, token);
  if (!attempt.handshake) {
    return make_error(attempt.timed_out ? ErrorCode::timeout : ErrorCode::process,
                      "the agent installed " + host.where() + " did not start: " + attempt.problem);
  }
  if (auto still = reason_to_install(attempt, options)) {
    return make_error(ErrorCode::process, "the agent installed " + host.where() + " is still not usable: " + *still);
  }
  return attempt;
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

AgentSession::AgentSession(std::unique_ptr<ChildChannel> child, agent_api::HandshakeLine handshake, std::string where)
    : m_child(std::move(child)), m_handshake(std::move(handshake)), m_where(std::move(where)) {}

AgentSession::~AgentSession() {
  m_transport.reset();
  if (m_child) m_child->finish(std::chrono::seconds(5));
}

Result<AgentReply> AgentSession::get(const std::string& path, std::chrono::milliseconds timeout) {
  std::lock_guard lock(m_mutex);
  if (!m_transport) return make_error(ErrorCode::internal, "no agent transport");
  return m_transport->request("GET", path, nullptr, timeout);
}

std::string AgentSession::describe() const {
  const std::string over = m_link == AgentLink::http ? "http (127.0.0.1:" + std::to_string(m_handshake.port) + ")"
                                                     : std::string(transport_name()) + " (stdio fallback)";
  return "tfwsl-agent " + m_handshake.agent + " " + m_where + " over " + over + (m_deployed ? ", installed just now" : "");
}

Result<std::unique_ptr<AgentSession>> connect_agent(AgentHost& host, LoopbackConnector& loopback,
                                                    const BridgeOptions& options) {
  const std::string token = make_token();
  bool installed = false;
  TFWSL_TRY(attempt, start_or_install(host, options, token, installed));
  auto session = std::make_unique<AgentSession>(std::move(attempt.child), *attempt.handshake, host.where());
  session->m_deployed = installed;

  // Is 127.0.0.1:<port> our agent? Ask for the proof before the token goes there.
  auto http = loopback.connect(session->m_handshake.port, token);
  const std::string nonce = make_token();
  auto proof = http->challenge(nonce, options.challenge_timeout);
  const std::string where = "127.0.0.1:" + std::to_string(session->m_handshake.port);
  if (proof && agent_api::verify_challenge_proof(token, nonce, *proof)) {
    session->m_transport = std::move(http);
    session->m_link = AgentLink::http;
    return session;
  }
  if (!proof && proof.error().code == ErrorCode::io) {
    session->m_link = AgentLink::stdio_fallback;
    session->m_localhost_problem = where + " does not answer" + (host.forwards_localhost() ? " from Windows" : "") + " (" +
                                   proof.error().message + ")";
  } else {
    session->m_link = AgentLink::stdio_impostor;
    session->m_localhost_problem =
        "another program answers on " + where + (proof ? ": its challenge proof is wrong" : ": " + proof.error().message);
  }
  spdlog::warn("{}; using the agent's stdio channel instead", session->m_localhost_problem);
  session->m_transport = std::make_unique<StdioAgentTransport>(*session->m_child);
  return session;
}

}  // namespace tfwsl::agent_client
