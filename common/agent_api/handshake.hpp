#pragma once
// The stdio handshake of `tfwsl-agent serve --stdio-handshake` (docs/agent-api.md, "Start-up"):
//   1. the CLI writes the token and '\n' as the first line of the agent's stdin;
//   2. the agent answers with exactly one JSON line on stdout:
//        {"agent":"0.2.0","api":4,"pid":1234,"port":41234}
//   3. stdin then carries framed requests (frame_codec.hpp) until EOF, when the agent exits 0.

#include <string>

#include "common/core/error.hpp"

namespace tfwsl::agent_api {

// 2: GET /v1/facts (common/agent_api/linux_facts.hpp); the CLI judges the facts itself.
// 3: facts wsl.gpu_disabled (/etc/wsl.conf [gpu] enabled=false), stack.docker and
//    stack.nvidia_container_runtime (NVIDIA's container, the way TensorFlow runs on Blackwell).
// 4: facts stack.apt_version, stack.cuda_repository_sources and stack.cuda_repository_lists (apt 3's
//    sqv refusing NVIDIA's CUDA repository key).
inline constexpr int k_api_version = 4;
// The token line is short; anything longer is refused before it is buffered further.
inline constexpr std::size_t k_max_token_line = 1024;

struct HandshakeLine {
  std::string agent;  // agent version, e.g. "0.1.0"
  int api = k_api_version;
  long pid = 0;
  int port = 0;  // the loopback port the HTTP listener bound
};

// One line, no trailing newline.
std::string format_handshake_line(const HandshakeLine& line);
// Parses what the agent printed; tolerates a trailing "\r\n" (wsl.exe on Windows).
Result<HandshakeLine> parse_handshake_line(const std::string& text);

// The token line as read from stdin: strips one trailing "\r" and checks the token's shape.
// The error message never contains the line itself.
Result<std::string> parse_token_line(const std::string& line);

}  // namespace tfwsl::agent_api
