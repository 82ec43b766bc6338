// The one definition of whitespace and case folding the parsers share.
#include <catch2/catch.hpp>

#include "common/util/ascii.hpp"

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
}
