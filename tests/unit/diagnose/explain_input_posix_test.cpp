// `tfwsl explain FILE` on POSIX: a file name is bytes, and need not be UTF-8 (a Latin-1 name copied
// from an old archive, a name made by a tool). Windows names are UTF-16 and always convert.
#include <catch2/catch.hpp>
#include <string>

#include "tests/support/test_environment.hpp"
#include "win/commands/explain_command.hpp"

using tfwsl::cli::explain_input_path;
using tfwsl::cli::read_explain_input;

TEST_CASE("explain input: a file whose name is not valid UTF-8 is read, not reported missing") {
  tfwsl::test::TempDir dir;
  const std::string name = "caf\xe9.txt";  // Latin-1 e-acute: not UTF-8
  const std::string argument = (dir.path() / name).string();
  tfwsl::test::write_file(explain_input_path(argument), "Default Version: 1\n");
  auto bytes = read_explain_input(argument);
  REQUIRE(bytes);
  CHECK(*bytes == "Default Version: 1\n");
}

TEST_CASE("explain input: a UTF-8 name and a missing file") {
  tfwsl::test::TempDir dir;
  const std::string argument = (dir.path() / "r\xc3\xa9sum\xc3\xa9.log").string();
  tfwsl::test::write_file(explain_input_path(argument), "x");
  auto bytes = read_explain_input(argument);
  REQUIRE(bytes);
  CHECK(*bytes == "x");
  auto missing = read_explain_input((dir.path() / "absent\xff.txt").string());
  REQUIRE_FALSE(missing);
  CHECK(missing.error().describe().find("does not exist") != std::string::npos);
}
