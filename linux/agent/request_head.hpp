#pragma once
// The connection gate's view of a request while its bytes arrive: where the head ends, how many
// body bytes to wait for, and whether the framing is already hopeless. Incremental (each byte is
// looked at once, however the client splits them) and pure, so it is unit-tested and fuzzed alone.
// cpp-httplib still parses the request that passes; this only decides when to hand it over.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace tfwsl::agent {

// A Content-Length value: strict decimal, no sign, no spaces, at most 18 digits (no overflow).
// The gate and admission read it the same way.
std::optional<std::size_t> parse_content_length(std::string_view text);

enum class HeadState {
  incomplete,  // no blank line yet, under the size limit
  complete,    // the head ends at head_size(); wait for body_size() more bytes
  too_large,   // no blank line within the limit: 431
  malformed,   // a bare LF or a bare CR (RFC 9112 section 2.2): 400
};

class RequestHeadScanner {
 public:
  RequestHeadScanner(std::size_t max_head, std::size_t max_body) : m_max_head(max_head), m_max_body(max_body) {}

  // `bytes` is everything received on the connection so far (a prefix of it was seen before).
  HeadState scan(std::string_view bytes);

  HeadState state() const { return m_state; }
  std::size_t head_size() const { return m_head_size; }  // through the blank line
  // The one numeric Content-Length at or under the body cap; 0 otherwise (none, several, not a
  // number, too large, or with a Transfer-Encoding: admission refuses those before any body read).
  std::size_t body_size() const { return m_body_size; }
  const char* problem() const { return m_problem; }

 private:
  void finish_head(std::string_view head);

  std::size_t m_max_head;
  std::size_t m_max_body;
  std::size_t m_checked = 0;  // bytes already looked at
  HeadState m_state = HeadState::incomplete;
  std::size_t m_head_size = 0;
  std::size_t m_body_size = 0;
  const char* m_problem = "";
};

}  // namespace tfwsl::agent
