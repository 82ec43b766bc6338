// Project files shaped to crash or blind the scan (issue 38, items 3 and 11): a pyproject.toml whose
// dotted key or table header is 200,000 parts deep (toml++ overflowed the stack: SIGSEGV), and an
// environment.yml too large or too deep to read, which the scan skipped so that migrate said the
// project had no requirement file at all.
#include <catch2/catch.hpp>
#include <string>

#include "common/parse/toml_requirements.hpp"
#include "tests/unit/migrate/fake_project_files.hpp"
#include "win/migrate/migrate_facts.hpp"
#include "win/migrate/project_scan.hpp"

using namespace tfwsl;
using namespace tfwsl::migrate;

namespace {

std::string repeated(std::string_view part, std::size_t times) {
  std::string out;
  out.reserve(part.size() * times);
  for (std::size_t i = 0; i < times; ++i) out += part;
  return out;
}

std::string scan_error(migrate::test::FakeProjectFiles& fs) {
  auto scan = scan_project(fs, builtin_migrate_facts());
  return scan ? std::string("(no error)") : scan.error().message;
}

}  // namespace

TEST_CASE("a pyproject.toml with a dotted key or header 200,000 parts deep is refused by name, not parsed",
          "[migrate][scan][toml]") {
  for (const std::string& deep : {"[project]\nname = \"x\"\n" + repeated("a.", 200000) + "a = 1\n",
                                  "[project]\nname = \"x\"\n[" + repeated("a.", 200000) + "a]\n",
                                  "x = " + repeated("{a.a.a = ", 30000) + "1" + repeated("}", 30000) + "\n"}) {
    const auto read = parse::read_toml_requirements(deep, parse::RequirementsFormat::pyproject_pep621);
    REQUIRE(read.error);
    CHECK(read.error->find("nested deeper than 64 levels") != std::string::npos);
    migrate::test::FakeProjectFiles fs;
    fs.files["pyproject.toml"] = deep;
    const std::string error = scan_error(fs);
    CHECK(error.starts_with("pyproject.toml:"));
    CHECK(error.find("nested deeper than 64 levels") != std::string::npos);
    CHECK(error.find("nothing was changed") != std::string::npos);
    CHECK(error.size() < 400);
  }
  const auto line = parse::read_toml_requirements("[project]\nname = \"x\"\n" + repeated("a.", 100) + "a = 1\n",
                                                  parse::RequirementsFormat::pyproject_pep621);
  REQUIRE(line.error);
  CHECK(line.error_line == 3);
}

TEST_CASE("an environment.yml too large or too deep is named with its reason, not taken for no requirement file",
          "[migrate][scan]") {
  migrate::test::FakeProjectFiles large;
  large.files["environment.yml"] = "dependencies:\n  - python=3.10\n" + repeated("# padding\n", 500000);
  const std::string too_large = scan_error(large);
  CHECK(too_large.find("environment.yml") != std::string::npos);
  CHECK(too_large.find("more than 4194304") != std::string::npos);

  migrate::test::FakeProjectFiles deep;
  deep.files["environment.yml"] = "dependencies:\n  - " + repeated("[", 200000) + "\n";
  const std::string too_deep = scan_error(deep);
  CHECK(too_deep.starts_with("environment.yml:2: nested deeper than 64 levels"));

  // Another YAML file is only a candidate, but one too deep to load may be the environment: named too.
  for (const std::string& text :
       {"dependencies:\n  - " + repeated("[", 5000) + "\n", "dependencies:\n" + repeated("- ", 5000) + "x\n"}) {
    migrate::test::FakeProjectFiles candidate;
    candidate.files["conda/env-gpu.yml"] = text;
    CHECK(scan_error(candidate).starts_with("conda/env-gpu.yml:2: nested deeper than 64 levels"));
  }
  std::string block = "dependencies:\n";  // block nesting past yaml-cpp's own limit (2000)
  for (int level = 1; level < 2100; ++level) block += std::string(level, ' ') + "a:\n";
  migrate::test::FakeProjectFiles guarded;
  guarded.files["env-gpu.yml"] = block;
  CHECK(scan_error(guarded).find("env-gpu.yml:") == 0);
  CHECK(scan_error(guarded).find("nothing was changed") != std::string::npos);
}
