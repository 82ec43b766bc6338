#include "common/util/nesting_depth.hpp"

#include <catch2/catch.hpp>
#include <string>

using tfwsl::deepest_nesting;
using tfwsl::NestingSyntax;

namespace {

std::string repeated(std::string_view part, std::size_t times) {
  std::string out;
  for (std::size_t i = 0; i < times; ++i) out += part;
  return out;
}

std::size_t depth(std::string_view text, NestingSyntax syntax) { return deepest_nesting(text, syntax).depth; }

}  // namespace

TEST_CASE("nesting depth: JSON counts open arrays and objects, not brackets in strings", "[util]") {
  CHECK(depth("", NestingSyntax::json) == 0);
  CHECK(depth("1", NestingSyntax::json) == 0);
  CHECK(depth(R"({"memory": "16GB", "experimental": {"sparseVhd": true}})", NestingSyntax::json) == 2);
  CHECK(depth(R"({"a": "[[[[{{{{", "b": "\"[[["})", NestingSyntax::json) == 1);
  CHECK(depth("[[1], [2], [[3]]]", NestingSyntax::json) == 3);
  // 200,000 levels: the scan stops one past the limit, where it says the line.
  const std::string deep = "{\n\"bogus\": " + repeated("[", 200000) + repeated("]", 200000) + "}";
  const auto found = deepest_nesting(deep, NestingSyntax::json);
  CHECK(found.depth == tfwsl::k_nesting_limit + 1);
  CHECK(found.line == 2);
}

TEST_CASE("nesting depth: TOML counts header parts, dotted key parts, arrays and inline tables", "[util]") {
  CHECK(depth("name = \"x\"\n", NestingSyntax::toml) == 1);
  CHECK(depth("[project]\ndependencies = [\"numpy>=1.2.3\", 'a.b.c']\n", NestingSyntax::toml) == 3);
  CHECK(depth("[tool.poetry.group.dev.dependencies]\npytest = \"^7.0\"\n", NestingSyntax::toml) == 6);
  CHECK(depth("a.b.c = 1.5\n", NestingSyntax::toml) == 3);
  CHECK(depth("\"a.b\".c = 1\n", NestingSyntax::toml) == 2);
  CHECK(depth("x = { y.z = [1, {w = 2}] }\n", NestingSyntax::toml) == 5);
  CHECK(depth("x = \"\"\"\n[a.b.c.d.e]\n\"\"\"\n# [a.b.c.d.e.f]\n", NestingSyntax::toml) == 1);
  CHECK(depth("[[a.b]]\nc = 1\n[d]\ne = 2\n", NestingSyntax::toml) == 3);
  // The shapes that crashed migrate, and the header form.
  const std::string dotted_key = repeated("a.", 200000) + "a = 1\n";
  CHECK(depth(dotted_key, NestingSyntax::toml) == tfwsl::k_nesting_limit + 1);
  const std::string header = "[" + repeated("a.", 200000) + "a]\n";
  CHECK(depth(header, NestingSyntax::toml) == tfwsl::k_nesting_limit + 1);
  CHECK(depth("x = " + repeated("[", 100) + repeated("]", 100), NestingSyntax::toml) == tfwsl::k_nesting_limit + 1);
  CHECK(depth(repeated("a.", 62) + "a = 1\n", NestingSyntax::toml) == 63);
}

TEST_CASE("nesting depth: YAML counts flow collections and compact entries, not strings, comments or text", "[util]") {
  CHECK(depth("name: tf\nwsl:\n  memory: 16GB\n", NestingSyntax::yaml) == 0);
  CHECK(depth("apt: [build-essential, {a: [1]}]\n", NestingSyntax::yaml) == 3);
  CHECK(depth("a: '[[[' # [[[[\nb: \"{{\\\"[\"\nc: don't [x]\n", NestingSyntax::yaml) == 1);
  CHECK(depth("a: 'it''s [[['\n", NestingSyntax::yaml) == 0);
  CHECK(depth("- - - x\n- y\n", NestingSyntax::yaml) == 3);
  CHECK(depth("---\nx: -1\n", NestingSyntax::yaml) == 0);
  // A block scalar's lines are text, however they look.
  CHECK(depth("script: |\n  [[[[\n  it's\n\n  {{{{\nnext: [1]\n", NestingSyntax::yaml) == 1);
  const std::string deep = "dependencies:\n  - " + repeated("[", 200000) + "\n";
  const auto found = deepest_nesting(deep, NestingSyntax::yaml);
  CHECK(found.depth == tfwsl::k_nesting_limit + 1);
  CHECK(found.line == 2);
  CHECK(depth(repeated("- ", 100000) + "x\n", NestingSyntax::yaml) == tfwsl::k_nesting_limit + 1);
}

TEST_CASE("nesting depth: the error names the input, the line and the limit", "[util]") {
  CHECK(tfwsl::check_nesting_depth("[[1]]", NestingSyntax::json, "stdin"));
  const auto refused =
      tfwsl::check_nesting_depth("x = 1\n" + repeated("a.", 70) + "a = 1\n", NestingSyntax::toml, "pyproject.toml");
  REQUIRE_FALSE(refused);
  CHECK(refused.error().code == tfwsl::ErrorCode::invalid_input);
  CHECK(refused.error().message.starts_with("pyproject.toml:2: nested deeper than 64 levels"));
  CHECK(refused.error().message.find("flatten it") != std::string::npos);
  CHECK(refused.error().message.size() < 300);
}
