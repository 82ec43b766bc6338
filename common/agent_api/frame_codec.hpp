#pragma once
// The stdio fallback channel (docs/agent-api.md, "Stdio framing"). After the handshake, the agent's
// stdin and stdout carry frames; each frame is
//
//   "TFWSL1 " <decimal byte count> "\n" <that many bytes of UTF-8 JSON>
//
// A request frame holds {"id":N,"method":"GET","path":"/v1/info","body":{...}|null}; the answer
// holds {"id":N,"status":200,"body":{...}}. Requests are answered in order. Length-prefixed so that
// no JSON content (newlines inside strings, CRs added on the Windows side) can split a frame.

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "common/core/error.hpp"

namespace tfwsl::agent_api {

inline constexpr std::string_view k_frame_magic = "TFWSL1 ";
inline constexpr std::size_t k_frame_header_max = 32;  // "TFWSL1 " + up to 20 digits + "\n"

std::string encode_frame(std::string_view payload);

// Feed bytes as they arrive; take complete payloads out with next(). A malformed header or a
// payload over max_payload is a sticky error: the stream cannot be resynchronised, the caller closes it.
class FrameDecoder {
 public:
  explicit FrameDecoder(std::size_t max_payload) : m_max_payload(max_payload) {}
  void feed(std::string_view bytes);
  // A complete payload, nothing while more bytes are needed, or the error that broke the stream.
  Result<std::optional<std::string>> next();
  std::size_t buffered() const { return m_buffer.size(); }

 private:
  std::size_t m_max_payload;
  std::string m_buffer;
  std::optional<Error> m_error;
};

struct FrameRequest {
  std::uint64_t id = 0;
  std::string method;   // "GET" or "POST"
  std::string path;     // "/v1/checks?refresh=1": path and query as in HTTP
  nlohmann::json body;  // null for GET
};

struct FrameResponse {
  std::uint64_t id = 0;
  int status = 200;
  nlohmann::json body;
};

std::string to_payload(const FrameRequest& request);
std::string to_payload(const FrameResponse& response);
// Strict: unknown fields, wrong types and missing id/method/path are errors.
Result<FrameRequest> parse_frame_request(const std::string& payload);
Result<FrameResponse> parse_frame_response(const std::string& payload);

}  // namespace tfwsl::agent_api
