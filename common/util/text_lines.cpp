#include "common/util/text_lines.hpp"

#include "common/util/ascii.hpp"
#include "common/util/utf8_prefix.hpp"

namespace tfwsl {

std::vector<std::string_view> lines_of(std::string_view text) {
  std::vector<std::string_view> lines;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    while (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    // A lone CR (old Mac style, or CR without LF from a console capture) also ends a line.
    std::size_t cr = 0;
    while ((cr = line.find('\r')) != std::string_view::npos) {
      lines.push_back(line.substr(0, cr));
      line.remove_prefix(cr + 1);
      while (!line.empty() && line.front() == '\r') line.remove_prefix(1);
    }
    if (end == text.size()) {
      if (!line.empty()) lines.push_back(line);
      break;
    }
    lines.push_back(line);
    start = end + 1;
  }
  return lines;
}

std::vector<std::string> last_nonblank_lines(std::string_view text, std::size_t count, std::size_t max_line_bytes) {
  std::vector<std::string> kept;
  for (std::string_view line : lines_of(text))
    if (!trim(line).empty()) kept.emplace_back(utf8_prefix(line, max_line_bytes));
  if (kept.size() > count) kept.erase(kept.begin(), kept.end() - static_cast<std::ptrdiff_t>(count));
  return kept;
}

}  // namespace tfwsl
