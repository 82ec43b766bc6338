#include "common/agent_api/handshake.hpp"

#include <nlohmann/json.hpp>

#include "common/agent_api/token.hpp"

namespace tfwsl::agent_api {

std::string format_handshake_line(const HandshakeLine& line) {
  nlohmann::json j{{"agent", line.agent}, {"api", line.api}, {"pid", line.pid}, {"port", line.port}};
  return j.dump();
}

Result<HandshakeLine> parse_handshake_line(const std::string& text) {
  std::string trimmed = text;
  while (!trimmed.empty() && (trimmed.back() == '\n' || trimmed.back() == '\r')) trimmed.pop_back();
  auto j = nlohmann::json::parse(trimmed, nullptr, false);
  if (j.is_discarded() || !j.is_object())
    return make_error(ErrorCode::parse, "the agent's handshake line is not a JSON object", trimmed.substr(0, 200));
  HandshakeLine out;
  if (!j.contains("agent") || !j["agent"].is_string() || !j.contains("api") || !j["api"].is_number_integer() ||
      !j.contains("pid") || !j["pid"].is_number_integer() || !j.contains("port") || !j["port"].is_number_integer())
    return make_error(ErrorCode::parse, "the agent's handshake line lacks agent/api/pid/port", trimmed.substr(0, 200));
  out.agent = j["agent"].get<std::string>();
  out.api = j["api"].get<int>();
  out.pid = j["pid"].get<long>();
  out.port = j["port"].get<int>();
  if (out.port < 0 || out.port > 65535)
    return make_error(ErrorCode::parse, "the agent's handshake line has port " + std::to_string(out.port));
  return out;
}

Result<std::string> parse_token_line(const std::string& line) {
  std::string token = line;
  if (!token.empty() && token.back() == '\n') token.pop_back();
  if (!token.empty() && token.back() == '\r') token.pop_back();
  if (!is_valid_token(token))
    return make_error(ErrorCode::invalid_input,
                      "the first line of stdin must be the token: " + std::to_string(k_min_token_hex_digits) + " to " +
                          std::to_string(k_max_token_hex_digits) + " hex digits (128 bits or more)");
  return token;
}

}  // namespace tfwsl::agent_api
