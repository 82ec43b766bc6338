#pragma once
// How the CLI reached the agent: the one answer the bridge gives (AgentSession::link) and the
// doctor reports (wsl.agent, wsl.localhost-forwarding).

namespace tfwsl::agent_client {

enum class AgentLink {
  none,            // no agent: it could not be started, or stopped answering
  http,            // 127.0.0.1:<port> answered the challenge: requests go over HTTP with the token
  stdio_fallback,  // 127.0.0.1:<port> did not answer: requests go over the child's stdio frames
  stdio_impostor,  // something else answered there (no valid proof): the token was kept, stdio used
};

inline const char* to_string(AgentLink link) {
  switch (link) {
    case AgentLink::none:
      return "none";
    case AgentLink::http:
      return "http";
    case AgentLink::stdio_fallback:
      return "stdio-fallback";
    case AgentLink::stdio_impostor:
      return "stdio-impostor";
  }
  return "none";
}

}  // namespace tfwsl::agent_client
