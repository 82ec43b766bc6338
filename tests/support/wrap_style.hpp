#pragma once
// What the fit_to_width tests share (common/util/text_wrap.hpp): a style at a width with the commands
// a text prints, and a text's lines. One copy, so that both test files build in one unity batch.

#include <cstddef>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "common/util/text_wrap.hpp"

namespace tfwsl::test {

inline WrapStyle wrap_style_at(std::size_t width, std::vector<PrintedCommand> commands = {}) {
  WrapStyle s;
  s.width = width;
  s.commands = std::move(commands);
  return s;
}

inline std::vector<std::string> text_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

}  // namespace tfwsl::test
