#pragma once
// How the CLI sends a request to the agent: HTTP on 127.0.0.1:<port> with the bearer token, or the
// stdio frames on the wsl.exe child's pipes when WSL's localhost forwarding does not answer.
// Both give the same (status, JSON body).

#include <chrono>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "common/core/error.hpp"
#include "win/agent_client/child_channel.hpp"

namespace tfwsl::agent_client {

struct AgentReply {
  int status = 0;
  nlohmann::json body;
};

class AgentTransport {
 public:
  virtual ~AgentTransport() = default;
  virtual const char* name() const = 0;  // "http" or "stdio"
  // Errors: the transport failed (no connection, broken stream, timeout); an HTTP error status is a
  // reply, not an error.
  virtual Result<AgentReply> request(const std::string& method, const std::string& path, const nlohmann::json& body,
                                     std::chrono::milliseconds timeout) = 0;
};

// A transport to 127.0.0.1:<port> that can first be asked to prove it is our agent.
class LoopbackTransport : public AgentTransport {
 public:
  // POST /v1/challenge without the token; the proof it returns (or why there is none). Errors with
  // ErrorCode::io mean nothing answered there.
  virtual Result<std::string> challenge(const std::string& nonce, std::chrono::milliseconds timeout) = 0;
};

// Makes the loopback transport for the port of a handshake: HTTP for real (HttpLoopbackConnector),
// a test's fake otherwise. The token is only sent by request(), never by challenge().
class LoopbackConnector {
 public:
  virtual ~LoopbackConnector() = default;
  virtual std::unique_ptr<LoopbackTransport> connect(int port, const std::string& token) = 0;
};

class HttpAgentTransport final : public LoopbackTransport {
 public:
  HttpAgentTransport(int port, std::string token);
  const char* name() const override { return "http"; }
  Result<AgentReply> request(const std::string& method, const std::string& path, const nlohmann::json& body,
                             std::chrono::milliseconds timeout) override;
  Result<std::string> challenge(const std::string& nonce, std::chrono::milliseconds timeout) override;

 private:
  int m_port;
  std::string m_token;
};

class HttpLoopbackConnector final : public LoopbackConnector {
 public:
  std::unique_ptr<LoopbackTransport> connect(int port, const std::string& token) override {
    return std::make_unique<HttpAgentTransport>(port, token);
  }
};

// Not thread-safe by itself: requests are answered in order, so callers serialise (AgentSession does).
class StdioAgentTransport final : public AgentTransport {
 public:
  explicit StdioAgentTransport(ChildChannel& channel) : m_channel(channel) {}
  const char* name() const override { return "stdio"; }
  Result<AgentReply> request(const std::string& method, const std::string& path, const nlohmann::json& body,
                             std::chrono::milliseconds timeout) override;

 private:
  ChildChannel& m_channel;
  std::uint64_t m_next_id = 1;
};

}  // namespace tfwsl::agent_client
