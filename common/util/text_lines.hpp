#pragma once
// A text as lines: split whatever the line ends (LF, CRLF, the doubled CR of a UTF-16 pipe, a lone
// CR from a console capture), and the last lines of a program's output for a report.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace tfwsl {

// Lines without their ends; '\r' at a line end is dropped and a lone '\r' ends a line too. No empty
// last line for a text that ends with its line end. Views into `text`.
std::vector<std::string_view> lines_of(std::string_view text);

// The last `count` lines of `text` that are not blank, each cut to at most `max_line_bytes` without
// cutting a UTF-8 character in two (a traceback's end for a report; `text` should be valid UTF-8).
std::vector<std::string> last_nonblank_lines(std::string_view text, std::size_t count, std::size_t max_line_bytes);

}  // namespace tfwsl
