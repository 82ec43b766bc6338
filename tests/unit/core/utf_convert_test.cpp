#include "common/text/utf_convert.hpp"

#include <catch2/catch.hpp>

using namespace tfwsl;

TEST_CASE("UTF-8 and UTF-16 round-trip ASCII, BMP and astral characters", "[utf]") {
  const std::string text = "Ubuntu-22.04 \xC3\xA9t\xC3\xA9 \xE4\xB8\xAD\xE6\x96\x87 \xF0\x9F\x9A\x80";  // été 中文 🚀
  auto u16 = utf8_to_utf16(text);
  CHECK(u16.size() == 13 + 4 + 3 + 2);  // "Ubuntu-22.04 ", "été ", "中文 ", and the rocket as a surrogate pair
  CHECK(u16[u16.size() - 2] == 0xD83D);
  CHECK(u16[u16.size() - 1] == 0xDE80);
  CHECK(utf16_to_utf8(u16) == text);
}

TEST_CASE("ill-formed UTF-8 becomes U+FFFD instead of throwing", "[utf]") {
  CHECK(utf16_to_utf8(utf8_to_utf16("a\xFF"
                                    "b")) ==
        "a\xEF\xBF\xBD"
        "b");
  CHECK(utf16_to_utf8(utf8_to_utf16("\xE4\xB8")) == "\xEF\xBF\xBD\xEF\xBF\xBD");  // truncated
  CHECK(utf16_to_utf8(utf8_to_utf16("\xC0\xAF")) != "/");                         // overlong
  CHECK_FALSE(is_valid_utf8("\xED\xA0\x80"));                                     // encoded surrogate
  CHECK(is_valid_utf8("\xEF\xBF\xBD ok"));
  CHECK_FALSE(is_valid_utf8("caf\xE9"));  // Latin-1
}

TEST_CASE("lone surrogates in UTF-16 decode to U+FFFD", "[utf]") {
  std::u16string lone{u'a', static_cast<char16_t>(0xD800), u'b'};
  CHECK(utf16_to_utf8(lone) ==
        "a\xEF\xBF\xBD"
        "b");
}

TEST_CASE("UTF-16 bytes in both byte orders", "[utf]") {
  CHECK(utf16_bytes_to_utf8(std::string("h\0i\0", 4), false) == "hi");
  CHECK(utf16_bytes_to_utf8(std::string("\0h\0i", 4), true) == "hi");
  CHECK(utf16_bytes_to_utf8(std::string("h\0i", 3), false) == "h");  // odd byte dropped
}

TEST_CASE("wide strings carry the same text", "[utf]") {
  const std::string text = "C:\\Users\\J\xC3\xBCrgen\\.wslconfig";
  CHECK(wide_to_utf8(utf8_to_wide(text)) == text);
}

TEST_CASE("valid_utf8 keeps valid text and replaces what is not", "[utf]") {
  CHECK(tfwsl::valid_utf8("caf\xc3\xa9 \xe2\x82\xac") == "caf\xc3\xa9 \xe2\x82\xac");
  CHECK(tfwsl::valid_utf8("a\xff"
                          "b") ==
        "a\xef\xbf\xbd"
        "b");
  CHECK(tfwsl::valid_utf8("\x82\xac rest") == "\xef\xbf\xbd\xef\xbf\xbd rest");  // "€" cut at its start
  CHECK(tfwsl::valid_utf8("end \xe2\x82") == "end \xef\xbf\xbd\xef\xbf\xbd");    // and at its end
  CHECK(tfwsl::is_valid_utf8(tfwsl::valid_utf8("\xc0\xaf\xed\xa0\x80")));        // overlong, surrogate
}
