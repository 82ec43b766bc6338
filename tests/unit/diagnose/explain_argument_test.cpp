// `tfwsl explain 0x80370102`: an argument that is not a file is explained as text; "-" and a file
// keep working, and a mistyped file name is still an error that names it.
#include <catch2/catch.hpp>

#include "tests/support/captured_run.hpp"
#include "tests/support/cli_machine_run.hpp"
#include "tests/support/test_environment.hpp"
#include "win/app/cli_app.hpp"
#include "win/commands/explain_command.hpp"

using namespace tfwsl;
using cli::explain_source;
using cli::ExplainSource;

TEST_CASE("explain: what the words are: standard input, a file, or text") {
  test::TempDir dir;
  const auto file = (dir.path() / "pasted.txt").string();
  test::write_file(file, "x");
  CHECK(explain_source({"-"}) == ExplainSource::standard_input);
  CHECK(explain_source({file}) == ExplainSource::file);
  CHECK(explain_source({"0x80370102"}) == ExplainSource::text);
  CHECK(explain_source({"Wsl/Service/CreateInstance/E_ACCESSDENIED"}) == ExplainSource::text);
  CHECK(explain_source({"The", "virtual", "machine", "could", "not", "be", "started"}) == ExplainSource::text);
  CHECK(explain_source({(dir.path() / "pasted-eror.txt").string()}) ==
        ExplainSource::file);  // a typo: reported missing
  CHECK(explain_source({"pasted-eror.log"}) == ExplainSource::file);
}

TEST_CASE("tfwsl explain 0x80370102 explains the code as text") {
  const auto r = test::run_captured(test::tfwsl_cli, {"explain", "0x80370102"});
  INFO(r.out << r.err);
  CHECK(r.code == 2);
  CHECK(r.out.find("virtualization") != std::string::npos);
  CHECK(r.err.find("does not exist") == std::string::npos);
}

TEST_CASE("tfwsl explain of a missing file name still says it does not exist") {
  const auto r = test::run_captured(test::tfwsl_cli, {"explain", "no-such-paste.txt"});
  CHECK(r.code == 2);
  CHECK(r.err.find("does not exist") != std::string::npos);
}
