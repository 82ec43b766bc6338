#include <catch2/catch.hpp>
#include <cstdint>
#include <string>

#include "common/parse/toml_requirements.hpp"
#include "common/parse/toml_unicode_guard.hpp"

using namespace tfwsl::parse;

namespace {

// toml++ 3.3.0's is_non_ascii_horizontal_whitespace, rewritten to say where it reaches its
// TOML_UNREACHABLE instead of going there (the constants are the header's).
bool header_table_reaches_unreachable(char32_t c) {
  if (c < 0xA0 || c > 0xFEFF) return false;
  const std::uint64_t child = (static_cast<std::uint64_t>(c) - 0xA0) / 0x3FA;
  if ((std::uint64_t{1} << child) & 0x7FFFFFFFFFFFF75Eull) return false;
  if (c == 0xA0 || c == 0x3000 || c == 0xFEFF) return false;
  return child != 0x05 && child != 0x07;
}

std::string utf8(char32_t cp) {
  std::string out;
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
  return out;
}

}  // namespace

TEST_CASE("the TOML guard names exactly the code points toml++ 3.3.0 cannot classify", "[migrate][scan][toml]") {
  for (char32_t cp = 0; cp <= 0xFFFF; ++cp) {
    INFO("U+" << std::hex << static_cast<std::uint32_t>(cp));
    CHECK(toml_whitespace_table_fails_on(cp) == header_table_reaches_unreachable(cp));
  }
}

TEST_CASE("the TOML guard replaces each failing code point by a safe one of the same length", "[migrate][scan][toml]") {
  for (char32_t cp = 0x80; cp <= 0xFFFF; ++cp) {
    if (cp >= 0xD800 && cp <= 0xDFFF) continue;  // not encodable
    const std::string text = "a" + utf8(cp) + "b";
    const std::string guarded = guard_toml_unicode(text);
    INFO("U+" << std::hex << static_cast<std::uint32_t>(cp));
    REQUIRE(guarded.size() == text.size());
    if (!toml_whitespace_table_fails_on(cp)) {
      CHECK(guarded == text);
      continue;
    }
    CHECK(guarded != text);
    CHECK((guarded == "a" + utf8(U'\u0500') + "b" || guarded == "a" + utf8(U'\uFFFD') + "b"));
    CHECK_FALSE(header_table_reaches_unreachable(cp < 0x800 ? U'\u0500' : U'\uFFFD'));
  }
  // Invalid UTF-8 and four-byte sequences pass unchanged, for the parser to judge.
  const std::string odd = "x\xC2 \xE3\x80 \xFF \xF0\x9F\x98\x80 \xCC";
  CHECK(guard_toml_unicode(odd) == odd);
}

TEST_CASE("pyproject text that reached toml++'s undefined whitespace branch reads as TOML", "[migrate][scan][toml]") {
  // marzer/tomlplusplus#190: a line-ending backslash in a multi-line string, then U+00A7 (§).
  const auto backslash = read_toml_requirements(
      "[project]\nname = \"demo\"\ndescription = \"\"\"\\\n\xC2\xA7 see the manual\"\"\"\ndependencies = "
      "[\"tensorflow==2.15.1\"]  # caf\xC3\xA9\n",
      RequirementsFormat::pyproject_pep621);
  CHECK_FALSE(backslash.error);
  REQUIRE(backslash.result.requirements.size() == 1);
  CHECK(backslash.result.requirements[0].package == "tensorflow");
  CHECK(backslash.result.requirements[0].line == 5);
  // A line that starts with U+032A (marzer/tomlplusplus#295) or U+FE0F (an emoji's variation
  // selector) is not TOML: the error keeps the user's line and column.
  for (const std::string bad : {std::string("\xCC\xAA"), std::string("\xEF\xB8\x8F")}) {
    const auto refused = read_toml_requirements("[project]\nname = \"x\"\n" + bad + "dependencies = []\n",
                                                RequirementsFormat::pyproject_pep621);
    REQUIRE(refused.error);
    CHECK(refused.error_line == 3);
    CHECK(refused.error_column == 1);
  }
}

TEST_CASE("a table header that toml++ 3.3.0 asserted on is an error with its line", "[migrate][scan][toml]") {
  // marzer/tomlplusplus#301: `[[[` reached parse_key with a character no key starts with; so did `[`
  // then a control character (our fuzzer, tests/fuzz/regressions/fuzz_requirements/).
  for (const std::string header : {std::string("[[[1]]]"), std::string("[\x18\x18t]"), std::string("[[=")}) {
    const auto refused =
        read_toml_requirements("[project]\nname = \"x\"\n" + header + "\n", RequirementsFormat::pyproject_pep621);
    INFO(header);
    REQUIRE(refused.error);
    CHECK(refused.error_line == 3);
  }
}
