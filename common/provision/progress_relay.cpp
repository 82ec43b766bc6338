#include "common/provision/progress_relay.hpp"

#include "common/util/text_lines.hpp"

namespace tfwsl::provision {

void ProgressRelay::feed(std::string_view piece) {
  for (const auto& line : m_lines.feed(piece))
    if (auto event = progress_from_line(line)) m_sink(*event);
}

std::string without_progress_lines(std::string_view err) {
  std::string kept;
  for (const auto& line : lines_of(err))
    if (!progress_from_line(line)) kept.append(line).push_back('\n');
  return kept;
}

}  // namespace tfwsl::provision
