#include "common/util/text_lines.hpp"

#include <catch2/catch.hpp>

using tfwsl::last_nonblank_lines;
using tfwsl::lines_of;
using Lines = std::vector<std::string_view>;

TEST_CASE("lines_of splits on LF, CRLF, a doubled CR and a lone CR, without an empty last line", "[util]") {
  CHECK(lines_of("").empty());
  CHECK(lines_of("a") == Lines{"a"});
  CHECK(lines_of("a\n") == Lines{"a"});
  CHECK(lines_of("a\n\nb\n") == Lines{"a", "", "b"});
  CHECK(lines_of("a\r\nb\r\n") == Lines{"a", "b"});
  CHECK(lines_of("a\r\r\nb") == Lines{"a", "b"});  // a UTF-16 pipe read as bytes doubles the CR
  CHECK(lines_of("10%\r50%\r100%\ndone") == Lines{"10%", "50%", "100%", "done"});  // a progress bar
}

TEST_CASE("last_nonblank_lines keeps the last lines with text, cut without splitting a character", "[util]") {
  CHECK(last_nonblank_lines("one\n\n  \ntwo\nthree\n", 2, 400) == std::vector<std::string>{"two", "three"});
  CHECK(last_nonblank_lines("", 3, 400).empty());
  // "é" is two bytes: a cut at 2 bytes keeps "a" rather than half of it.
  CHECK(last_nonblank_lines("a\xC3\xA9z\n", 1, 2) == std::vector<std::string>{"a"});
  CHECK(last_nonblank_lines("a\xC3\xA9z\n", 1, 3) == std::vector<std::string>{"a\xC3\xA9"});
}
