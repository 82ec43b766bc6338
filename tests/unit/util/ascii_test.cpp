// The one definition of whitespace and case folding the parsers share.
#include "common/util/ascii.hpp"

#include <catch2/catch.hpp>

using namespace tfwsl;

TEST_CASE("trim drops ASCII whitespace at both ends and nothing else", "[util]") {
  CHECK(trim(" \t\r\n\v\fa b\t \n") == "a b");
  CHECK(trim("") == "");
  CHECK(trim(" \t ") == "");
  CHECK(trim("\xC2\xA0x\xC2\xA0") == "\xC2\xA0x\xC2\xA0");  // a no-break space is not ASCII whitespace
  CHECK(trim_left("  x ") == "x ");
  CHECK(trim_right("  x ") == "  x");
}

TEST_CASE("iequals and icontains fold ASCII case only", "[util]") {
  CHECK(iequals("Memory", "mEMORY"));
  CHECK_FALSE(iequals("memory", "memor"));
  CHECK(icontains("NVIDIA GeForce RTX", "geforce"));
  CHECK(icontains("abc", ""));
  CHECK_FALSE(icontains("ab", "abc"));
  CHECK_FALSE(iequals("\xC3\x89", "\xC3\xA9"));  // É and é: not ASCII, not folded
  CHECK(istarts_with("Sec-Fetch-Mode", "sec-fetch-"));
  CHECK(istarts_with("x", ""));
  CHECK_FALSE(istarts_with("Sec", "sec-fetch-"));
  CHECK_FALSE(istarts_with("X-Sec-Fetch-", "sec-fetch-"));
}

TEST_CASE("ASCII letters and digits, and no other byte", "[util]") {
  CHECK(ascii_is_alpha('a'));
  CHECK(ascii_is_alpha('Z'));
  CHECK_FALSE(ascii_is_alpha('1'));
  CHECK_FALSE(ascii_is_alpha('\xC3'));  // a UTF-8 lead byte (negative as char)
  CHECK(ascii_is_alnum('7'));
  CHECK_FALSE(ascii_is_alnum('_'));
  CHECK(ascii_upper('e') == 'E');
  CHECK(ascii_all_digits("0042"));
  CHECK_FALSE(ascii_all_digits(""));
  CHECK_FALSE(ascii_all_digits("1.0"));
  CHECK_FALSE(ascii_all_digits("+1"));
  CHECK(ascii_upper('\xE9') == '\xE9');
}

TEST_CASE("trim_with_nbsp also drops no-break spaces, mixed with ASCII whitespace, at both ends", "[util]") {
  CHECK(trim_with_nbsp("\xC2\xA0 x \xC2\xA0") == "x");
  CHECK(trim_with_nbsp(" \xC2\xA0 \xC2\xA0"
                       "2.0\t\xC2\xA0\xC2\xA0 ") == "2.0");  // in any mix and number
  CHECK(trim_with_nbsp("a\xC2\xA0"
                       "b") ==
        "a\xC2\xA0"
        "b");  // inside: kept
  CHECK(trim_with_nbsp("\xC2\xA0\xC2\xA0") == "");
  CHECK(trim_with_nbsp("\xE2\x80\xA0") == "\xE2\x80\xA0");  // U+2020 ends in A0 too: not a no-break space
  CHECK(trim_with_nbsp("\xC2") == "\xC2");                  // half a sequence stays
  static_assert(trim_with_nbsp(" \xC2\xA0x") == "x");
}
