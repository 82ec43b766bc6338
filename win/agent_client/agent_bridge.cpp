#include "win/agent_client/agent_bridge.hpp"

#include <spdlog/spdlog.h>

#include <optional>
#include <random>

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
std::vector<std::string> serve_args(const BridgeOptions& options) {
  std::vector<std::string> args{"serve", "--listen", "127.0.0.1:0", "--stdio-handshake"};
  for (const auto& root : options.roots) {
    args.push_back("--root");
    args.push_back(root);
  }
  return args;
}

std::string seconds(std::chrono::milliseconds ms) {
  if (ms.count() % 1000 == 0) return std::to_string(ms.count() / 1000) + " s";
  return std::to_string(ms.count()) + " ms";
}

// Sends the token to a started child and reads its handshake line.
StartAttempt handshake_with(Result<std::unique_ptr<ChildChannel>> child, const BridgeOptions& options,
                            const std::string& token) {
  StartAttempt attempt;
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

// Why the agent that answered (or did not) is not the one to use; nothing when it is usable.
std::optional<std::string> reason_not_usable(const StartAttempt& attempt, const BridgeOptions& options) {
  if (!attempt.handshake) return attempt.problem;
  if (!options.expected_version.empty() && attempt.handshake->agent != options.expected_version) {
    return "it is tfwsl-agent " + attempt.handshake->agent + ", tfwsl " + options.expected_version +
           " needs its own version";
  }
  return std::nullopt;
}

Error handshake_timeout(const AgentHost& host, const std::string& which, const std::string& problem) {
  return Error{
      ErrorCode::timeout,
      which + " " + host.where() + " started but " + problem +
          (host.forwards_localhost() ? ": run 'wsl --shutdown' and try again (a stuck WSL VM is the usual cause)"
                                     : ": check that it runs there (tfwsl-agent --version)"),
      {},
      {}};
}

// The agent shipped with tfwsl, installing nothing: where it lies, else (a drive mounted noexec,
// or any other start failure) from a temporary copy. `why` says why the installed one is not used.
Result<StartAttempt> start_shipped(AgentHost& host, const BridgeOptions& options, const std::string& token,
                                   const std::string& why, AgentOrigin& origin) {
  spdlog::info("the installed agent is not usable ({}); running the one shipped with tfwsl, installing nothing", why);
  auto child = host.start_shipped_agent(serve_args(options), ShippedRun::in_place);
  if (!child) {
    auto e = child.error();
    e.message = "the agent could not be started " + host.where() + " (" + why + "): " + e.message;
    return tl::unexpected(e);
  }
  const std::string shipped = "the shipped tfwsl-agent (" + host.shipped_agent_path() + ")";
  auto attempt = handshake_with(std::move(child), options, token);
  origin = AgentOrigin::shipped;
  if (!attempt.handshake && !attempt.timed_out) {
    const std::string in_place_problem = attempt.problem;
    spdlog::info("{} did not start in place ({}); trying a temporary copy", shipped, in_place_problem);
    attempt = handshake_with(host.start_shipped_agent(serve_args(options), ShippedRun::temp_copy), options, token);
    origin = AgentOrigin::shipped_copy;
    if (!attempt.handshake && !attempt.timed_out) {
      return make_error(ErrorCode::process, shipped + " did not start " + host.where() + ", neither in place (" +
                                                in_place_problem + ") nor from a temporary copy (" + attempt.problem +
                                                ")");
    }
  }
  if (attempt.timed_out) return tl::unexpected(handshake_timeout(host, shipped, attempt.problem));
  if (auto still = reason_not_usable(attempt, options)) {
    attempt.child->finish(std::chrono::seconds(3));
    return make_error(ErrorCode::process, shipped + " is not usable: " + *still + " (reinstall tfwsl)");
  }
  return attempt;
}

// `installed_version`: what the installed agent said it is, when that is not tfwsl's version.
Result<StartAttempt> start_usable_agent(AgentHost& host, const BridgeOptions& options, const std::string& token,
                                        AgentOrigin& origin, std::string& installed_version) {
  origin = AgentOrigin::installed;
  auto attempt = handshake_with(host.start_agent(serve_args(options)), options, token);
  if (attempt.timed_out) return tl::unexpected(handshake_timeout(host, "tfwsl-agent", attempt.problem));
  auto why = reason_not_usable(attempt, options);
  if (!why) return attempt;
  if (attempt.handshake) installed_version = attempt.handshake->agent;
  if (attempt.child) attempt.child->finish(std::chrono::seconds(3));
  return start_shipped(host, options, token, *why, origin);
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

Result<AgentReply> AgentSession::request(const std::string& method, const std::string& path, const nlohmann::json& body,
                                         std::chrono::milliseconds timeout) {
  std::lock_guard lock(m_mutex);
  if (!m_transport) return make_error(ErrorCode::internal, "no agent transport");
  return m_transport->request(method, path, body, timeout);
}

std::string AgentSession::describe() const {
  const std::string over = m_link == AgentLink::http ? "http (127.0.0.1:" + std::to_string(m_handshake.port) + ")"
                                                     : std::string(transport_name()) + " (stdio fallback)";
  std::string from;
  if (m_origin == AgentOrigin::shipped) from = ", run from " + m_shipped_path;
  if (m_origin == AgentOrigin::shipped_copy) from = ", run from a temporary copy of " + m_shipped_path;
  return "tfwsl-agent " + m_handshake.agent + " " + m_where + " over " + over + from;
}

Result<std::unique_ptr<AgentSession>> connect_agent(AgentHost& host, LoopbackConnector& loopback,
                                                    const BridgeOptions& options) {
  const std::string token = make_token();
  AgentOrigin origin = AgentOrigin::installed;
  std::string installed_version;
  TFWSL_TRY(attempt, start_usable_agent(host, options, token, origin, installed_version));
  auto session = std::make_unique<AgentSession>(std::move(attempt.child), *attempt.handshake, host.where());
  session->m_origin = origin;
  session->m_installed_version = installed_version;
  if (origin != AgentOrigin::installed) session->m_shipped_path = host.shipped_agent_path();

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
    session->m_localhost_problem = where + " does not answer" + (host.forwards_localhost() ? " from Windows" : "") +
                                   " (" + proof.error().message + ")";
  } else {
    session->m_link = AgentLink::stdio_impostor;
    session->m_localhost_problem = "another program answers on " + where +
                                   (proof ? ": its challenge proof is wrong" : ": " + proof.error().message);
  }
  spdlog::warn("{}; using the agent's stdio channel instead", session->m_localhost_problem);
  session->m_transport = std::make_unique<StdioAgentTransport>(*session->m_child);
  return session;
}

}  // namespace tfwsl::agent_client
