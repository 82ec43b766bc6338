#pragma once
// PushAgent over the real bridge (win/agent_client/agent_bridge.hpp): the agent in the distro
// through wsl.exe on Windows, a child on the native Linux build. Agent answers that are errors
// ({"error": {code, message}}) become Errors with the agent's message.

#include <memory>

#include "win/agent_client/agent_bridge.hpp"
#include "win/push/push_agent.hpp"

namespace tfwsl::push {

struct PushAgentTimeouts {
  std::chrono::milliseconds request{std::chrono::seconds(30)};
  std::chrono::milliseconds facts{std::chrono::seconds(240)};  // the first facts run imports TensorFlow
};

std::unique_ptr<PushAgent> make_session_push_agent(std::unique_ptr<agent_client::AgentSession> session,
                                                   PushAgentTimeouts timeouts = {});

// The Error for an agent answer with a status other than `expected`: the agent's own message,
// ErrorCode from its code (conflict, invalid_input, not_found, busy, ...).
Error agent_reply_error(const agent_client::AgentReply& reply, const std::string& what);

}  // namespace tfwsl::push
