#include "common/provision/output_lines.hpp"

namespace tfwsl::provision {

std::vector<std::string> OutputLines::feed(std::string_view piece) {
  std::vector<std::string> lines;
  for (const char c : piece) {
    if (c != '\n' && c != '\r') {
      m_pending.push_back(c);
      continue;
    }
    if (!m_pending.empty()) lines.push_back(std::move(m_pending));
    m_pending.clear();
  }
  return lines;
}

std::vector<std::string> OutputLines::finish() {
  std::vector<std::string> lines;
  if (!m_pending.empty()) lines.push_back(std::move(m_pending));
  m_pending.clear();
  return lines;
}

}  // namespace tfwsl::provision
