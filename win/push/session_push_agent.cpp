#include "win/push/session_push_agent.hpp"

#include <optional>
#include <string>

#include "common/agent_api/api_error.hpp"
#include "common/agent_api/linux_facts.hpp"

namespace tfwsl::push {
namespace {

// The agent's error (its code read through the one table, common/agent_api/api_error) as tfwsl's.
ErrorCode code_of(const std::string& api_code, int status) {
  const ErrorCode otherwise = status >= 500 ? ErrorCode::process : ErrorCode::invalid_input;
  const std::optional<agent_api::ApiError> error = agent_api::parse_code_name(api_code);
  if (!error) return otherwise;
  switch (*error) {
    case agent_api::ApiError::conflict:
      return ErrorCode::conflict;
    case agent_api::ApiError::invalid_input:
    case agent_api::ApiError::unprocessable:
      return ErrorCode::invalid_input;
    case agent_api::ApiError::not_found:
      return ErrorCode::not_found;
    case agent_api::ApiError::too_many_requests:
    case agent_api::ApiError::busy:
      return ErrorCode::busy;
    case agent_api::ApiError::unauthorized:
    case agent_api::ApiError::forbidden_host:
      return ErrorCode::permission;
    default:
      return otherwise;
  }
}

class SessionPushAgent final : public PushAgent {
 public:
  SessionPushAgent(std::unique_ptr<agent_client::AgentSession> session, PushAgentTimeouts timeouts)
      : m_session(std::move(session)), m_timeouts(timeouts) {}

  std::string describe() const override { return m_session->describe(); }

  Result<agent_api::PathResolveResponse> resolve(const std::string& windows_path) override {
    TFWSL_TRY(reply, call("POST", agent_api::route::k_paths_resolve, {{"windows_path", windows_path}}, 200));
    return agent_api::parse_path_resolve_response(reply.body);
  }

  Result<agent_api::InfoResponse> info() override {
    TFWSL_TRY(reply, call("GET", agent_api::route::k_info, nullptr, 200));
    return agent_api::parse_info(reply.body);
  }

  Result<std::optional<std::uint64_t>> distro_free_bytes(std::string& why) override {
    TFWSL_TRY(reply, call("GET", agent_api::route::k_facts, nullptr, 200, m_timeouts.facts));
    TFWSL_TRY(facts, agent_api::parse_linux_facts(reply.body));
    why = facts.system.disk_error;
    return facts.system.disk_free_bytes;
  }

  Result<JobState> start(const JobStart& job) override {
    nlohmann::json body{{"source", job.source},
                        {"target", job.target},
                        {"mode", job.move ? "move" : "copy"},
                        {"verify", job.verify},
                        {"jobs", job.jobs}};
    // Only when asked: an agent older than the field refuses it as unknown, and nothing left out
    // is what its absence means.
    if (!job.exclude.empty()) body["exclude"] = job.exclude;
    TFWSL_TRY(reply, call("POST", agent_api::route::k_datasets, body, 202));
    return parse_job_state(reply.body);
  }

  Result<JobState> status(const std::string& id) override {
    TFWSL_TRY(reply, call("GET", std::string(agent_api::route::k_jobs) + id, nullptr, 200));
    return parse_job_state(reply.body);
  }

  Status cancel(const std::string& id) override {
    TFWSL_TRY_STATUS(call("POST", std::string(agent_api::route::k_jobs) + id + "/cancel", nullptr, 202));
    return {};
  }

 private:
  Result<agent_client::AgentReply> call(const std::string& method, const std::string& path, const nlohmann::json& body,
                                        int expected, std::optional<std::chrono::milliseconds> timeout = std::nullopt) {
    TFWSL_TRY(reply, m_session->request(method, path, body, timeout.value_or(m_timeouts.request)));
    if (reply.status != expected) return tl::unexpected(agent_reply_error(reply, method + " " + path));
    return reply;
  }

  std::unique_ptr<agent_client::AgentSession> m_session;
  PushAgentTimeouts m_timeouts;
};

}  // namespace

Error agent_reply_error(const agent_client::AgentReply& reply, const std::string& what) {
  std::string code, message;
  if (reply.body.is_object() && reply.body.contains("error") && reply.body["error"].is_object()) {
    code = reply.body["error"].value("code", std::string());
    message = reply.body["error"].value("message", std::string());
  }
  if (message.empty()) message = what + " answered HTTP " + std::to_string(reply.status);
  return Error{code_of(code, reply.status), message, what + ": HTTP " + std::to_string(reply.status) + " " + code, {}};
}

std::unique_ptr<PushAgent> make_session_push_agent(std::unique_ptr<agent_client::AgentSession> session,
                                                   PushAgentTimeouts timeouts) {
  return std::make_unique<SessionPushAgent>(std::move(session), timeouts);
}

}  // namespace tfwsl::push
