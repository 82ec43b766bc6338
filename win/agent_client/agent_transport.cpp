#include "win/agent_client/agent_transport.hpp"

#include <httplib.h>

#include "common/agent_api/api_types.hpp"
#include "common/agent_api/frame_codec.hpp"
#include "common/util/nesting_depth.hpp"

namespace tfwsl::agent_client {
namespace {

void set_timeouts(httplib::Client& client, std::chrono::milliseconds timeout) {
  // Windows clients connect to 127.0.0.1, never "localhost" (a slow IPv6 attempt first).
  client.set_connection_timeout(std::chrono::seconds(3));
  client.set_read_timeout(timeout);
  client.set_write_timeout(std::chrono::seconds(10));
  client.set_keep_alive(false);
}

Result<AgentReply> to_reply(const httplib::Result& result, const std::string& what) {
  if (!result) {
    return make_error(ErrorCode::io, what + ": " + httplib::to_string(result.error()));
  }
  AgentReply reply;
  reply.status = result->status;
  if (auto deep = check_nesting_depth(result->body, NestingSyntax::json, what + ": the answer"); !deep)
    return tl::unexpected(deep.error());
  reply.body = nlohmann::json::parse(result->body, nullptr, false);
  if (reply.body.is_discarded()) return make_error(ErrorCode::parse, what + ": the answer is not JSON");
  return reply;
}

}  // namespace

HttpAgentTransport::HttpAgentTransport(int port, std::string token) : m_port(port), m_token(std::move(token)) {}

Result<AgentReply> HttpAgentTransport::request(const std::string& method, const std::string& path,
                                               const nlohmann::json& body, std::chrono::milliseconds timeout) {
  httplib::Client client("127.0.0.1", m_port);
  set_timeouts(client, timeout);
  httplib::Headers headers{{"Authorization", "Bearer " + m_token}};
  const std::string what = method + " " + path + " on 127.0.0.1:" + std::to_string(m_port);
  if (method == "GET") return to_reply(client.Get(path, headers), what);
  return to_reply(client.Post(path, headers, body.is_null() ? "{}" : body.dump(), "application/json"), what);
}

Result<std::string> HttpAgentTransport::challenge(const std::string& nonce, std::chrono::milliseconds timeout) {
  httplib::Client client("127.0.0.1", m_port);
  set_timeouts(client, timeout);
  nlohmann::json body{{"nonce", nonce}};
  auto reply = to_reply(client.Post(agent_api::route::k_challenge, body.dump(), "application/json"),
                        "the challenge on 127.0.0.1:" + std::to_string(m_port));
  if (!reply) return tl::unexpected(reply.error());
  if (reply->status != 200 || !reply->body.is_object() || !reply->body.contains("proof") ||
      !reply->body["proof"].is_string()) {
    return make_error(ErrorCode::permission, "whatever answers on 127.0.0.1:" + std::to_string(m_port) +
                                                 " gave no challenge proof (HTTP " + std::to_string(reply->status) +
                                                 ")");
  }
  return reply->body["proof"].get<std::string>();
}

Result<AgentReply> StdioAgentTransport::request(const std::string& method, const std::string& path,
                                                const nlohmann::json& body, std::chrono::milliseconds timeout) {
  agent_api::FrameRequest request;
  request.id = m_next_id++;
  request.method = method;
  request.path = path;
  request.body = body;
  TFWSL_TRY_STATUS(m_channel.write(agent_api::encode_frame(agent_api::to_payload(request))));
  // "TFWSL1 <n>\n" then n bytes.
  TFWSL_TRY(header, m_channel.read_line(timeout));
  const std::string magic(agent_api::k_frame_magic);
  if (header.rfind(magic, 0) != 0) return make_error(ErrorCode::parse, "the agent's stdio answer has no frame header");
  std::size_t size = 0;
  try {
    size = std::stoull(header.substr(magic.size()));
  } catch (const std::exception&) {
    return make_error(ErrorCode::parse, "the agent's stdio frame length is not a number");
  }
  TFWSL_TRY(payload, m_channel.read_exact(size, timeout));
  TFWSL_TRY(response, agent_api::parse_frame_response(payload));
  if (response.id != request.id) return make_error(ErrorCode::parse, "the agent answered another request");
  return AgentReply{response.status, response.body};
}

}  // namespace tfwsl::agent_client
