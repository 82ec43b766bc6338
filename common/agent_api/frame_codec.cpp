#include "common/agent_api/frame_codec.hpp"

#include "common/agent_api/json_wire.hpp"
#include "common/util/nesting_depth.hpp"

namespace tfwsl::agent_api {

std::string encode_frame(std::string_view payload) {
  std::string out(k_frame_magic);
  out += std::to_string(payload.size());
  out += '\n';
  out.append(payload);
  return out;
}

void FrameDecoder::feed(std::string_view bytes) {
  if (m_error) return;
  m_buffer.append(bytes);
}

Result<std::optional<std::string>> FrameDecoder::next() {
  if (m_error) return tl::unexpected(*m_error);
  auto fail = [&](std::string message) -> Result<std::optional<std::string>> {
    m_error = Error{ErrorCode::parse, std::move(message), {}, {}};
    m_buffer.clear();
    return tl::unexpected(*m_error);
  };
  auto newline = m_buffer.find('\n');
  if (newline == std::string::npos) {
    if (m_buffer.size() > k_frame_header_max) return fail("stdio frame header is too long");
    // Check the prefix we have so garbage is reported as soon as it arrives.
    auto n = std::min(m_buffer.size(), k_frame_magic.size());
    if (m_buffer.compare(0, n, k_frame_magic.substr(0, n)) != 0)
      return fail("stdio frame does not start with 'TFWSL1 '");
    return std::optional<std::string>{};
  }
  if (newline > k_frame_header_max) return fail("stdio frame header is too long");
  if (m_buffer.compare(0, k_frame_magic.size(), k_frame_magic) != 0)
    return fail("stdio frame does not start with 'TFWSL1 '");
  auto digits = std::string_view(m_buffer).substr(k_frame_magic.size(), newline - k_frame_magic.size());
  if (!digits.empty() && digits.back() == '\r') digits.remove_suffix(1);  // tolerate CRLF from Windows
  if (digits.empty() || digits.size() > 19) return fail("stdio frame length is missing or too long");
  std::uint64_t length = 0;
  for (char c : digits) {
    if (c < '0' || c > '9') return fail("stdio frame length is not a decimal number");
    length = length * 10 + static_cast<std::uint64_t>(c - '0');
  }
  if (length > m_max_payload)
    return fail("stdio frame of " + std::to_string(length) + " bytes is over the limit of " +
                std::to_string(m_max_payload));
  auto start = newline + 1;
  if (m_buffer.size() - start < length) return std::optional<std::string>{};
  std::string payload = m_buffer.substr(start, static_cast<std::size_t>(length));
  m_buffer.erase(0, start + static_cast<std::size_t>(length));
  return std::optional<std::string>{std::move(payload)};
}

std::string to_payload(const FrameRequest& request) {
  return wire_text(
      nlohmann::json{{"id", request.id}, {"method", request.method}, {"path", request.path}, {"body", request.body}});
}

std::string to_payload(const FrameResponse& response) {
  return wire_text(nlohmann::json{{"id", response.id}, {"status", response.status}, {"body", response.body}});
}

namespace {

Result<nlohmann::json> parse_object(const std::string& payload) {
  TFWSL_TRY_STATUS(check_nesting_depth(payload, NestingSyntax::json, "the stdio frame"));
  auto j = nlohmann::json::parse(payload, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return make_error(ErrorCode::parse, "stdio frame is not a JSON object");
  return j;
}

}  // namespace

Result<FrameRequest> parse_frame_request(const std::string& payload) {
  TFWSL_TRY(j, parse_object(payload));
  for (auto it = j.begin(); it != j.end(); ++it)
    if (it.key() != "id" && it.key() != "method" && it.key() != "path" && it.key() != "body")
      return make_error(ErrorCode::parse, "stdio request has unknown field '" + it.key() + "'");
  if (!j.contains("id") || !j["id"].is_number_unsigned() || !j.contains("method") || !j["method"].is_string() ||
      !j.contains("path") || !j["path"].is_string())
    return make_error(ErrorCode::parse, "stdio request needs id (unsigned), method and path (strings)");
  FrameRequest out;
  out.id = j["id"].get<std::uint64_t>();
  out.method = j["method"].get<std::string>();
  out.path = j["path"].get<std::string>();
  if (j.contains("body")) out.body = j["body"];
  return out;
}

Result<FrameResponse> parse_frame_response(const std::string& payload) {
  TFWSL_TRY(j, parse_object(payload));
  if (!j.contains("id") || !j["id"].is_number_unsigned() || !j.contains("status") || !j["status"].is_number_integer())
    return make_error(ErrorCode::parse, "stdio response needs id (unsigned) and status (integer)");
  FrameResponse out;
  out.id = j["id"].get<std::uint64_t>();
  out.status = j["status"].get<int>();
  if (j.contains("body")) out.body = j["body"];
  return out;
}

}  // namespace tfwsl::agent_api
