#include "linux/agent/request_head.hpp"

#include <cctype>
#include <optional>
#include <vector>

namespace tfwsl::agent {

namespace {

bool is_header_line_named(std::string_view line, std::string_view name) {
  if (line.size() <= name.size() || line[name.size()] != ':') return false;
  for (std::size_t i = 0; i < name.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(line[i])) != name[i]) return false;
  return true;
}

std::string_view header_line_value(std::string_view line, std::size_t name_size) {
  auto value = line.substr(name_size + 1);
  while (!value.empty() && (value.front() == ' ' || value.front() == '\t')) value.remove_prefix(1);
  while (!value.empty() && (value.back() == ' ' || value.back() == '\t')) value.remove_suffix(1);
  return value;
}

}  // namespace

HeadState RequestHeadScanner::scan(std::string_view bytes) {
  if (m_state != HeadState::incomplete) return m_state;
  auto limit = std::min(bytes.size(), m_max_head);
  for (std::size_t i = m_checked; i < limit; ++i) {
    char c = bytes[i];
    if (c == '\n' && (i == 0 || bytes[i - 1] != '\r')) {
      m_problem = "a line of the request head ends in a bare LF (send CRLF)";
      return m_state = HeadState::malformed;
    }
    if (i > 0 && bytes[i - 1] == '\r' && c != '\n') {
      m_problem = "the request head has a CR that does not end a line";
      return m_state = HeadState::malformed;
    }
    if (c == '\n' && i >= 3 && bytes[i - 2] == '\n') {  // CR LF CR LF: the blank line
      m_checked = i + 1;
      finish_head(bytes.substr(0, i + 1));
      return m_state = HeadState::complete;
    }
  }
  m_checked = limit;
  if (limit >= m_max_head) {
    m_problem = "the request head is larger than the agent accepts";
    return m_state = HeadState::too_large;
  }
  return m_state;
}

void RequestHeadScanner::finish_head(std::string_view head) {
  m_head_size = head.size();
  std::vector<std::string_view> lengths;
  bool encoded = false;
  std::size_t start = head.find("\r\n") + 2;  // past the request line
  while (start < head.size()) {
    auto end = head.find("\r\n", start);
    auto line = head.substr(start, end - start);
    if (is_header_line_named(line, "content-length")) lengths.push_back(header_line_value(line, 14));
    if (is_header_line_named(line, "transfer-encoding")) encoded = true;
    start = end + 2;
  }
  auto length = lengths.size() == 1 ? parse_content_length(lengths.front()) : std::nullopt;
  if (length && *length <= m_max_body && !encoded) m_body_size = *length;
}

std::optional<std::size_t> parse_content_length(std::string_view text) {
  if (text.empty() || text.size() > 18) return std::nullopt;
  std::size_t value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + static_cast<std::size_t>(c - '0');
  }
  return value;
}

}  // namespace tfwsl::agent
