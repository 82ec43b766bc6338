// `tfwsl profile export --name '"q"'` exited 0 with a profile that `profile validate` refuses
// (issue 38, item 11): export checks the name with the very rule the loader applies to a file.
#include <catch2/catch.hpp>
#include <initializer_list>
#include <string>

#include "common/profile/profile_loader.hpp"
#include "common/profile/profile_schema.hpp"
#include "common/profile/profile_source.hpp"
#include "tests/support/captured_run.hpp"
#include "tests/support/cli_machine_run.hpp"
#include "win/app/cli_app.hpp"

using namespace tfwsl;

namespace {

bool loader_refuses_name(const std::string& name) {
  InMemoryProfileResolver resolver({{"p.yaml", "name: '" + name + "'\n"}});
  auto text = resolver.open("p.yaml");
  REQUIRE(text);
  const auto loaded = load_profile(*text, resolver);
  for (const auto& issue : loaded.issues)
    if (issue.severity == IssueSeverity::error && issue.to_string().find("profile name") != std::string::npos)
      return true;
  return false;
}

}  // namespace

TEST_CASE("profile export refuses a --name that validate would refuse, before it asks the machine",
          "[profile][export]") {
  for (const std::string name : std::initializer_list<std::string>{"\"q\"", "a b", "x/y", std::string(65, 'n')}) {
    INFO(name);
    CHECK(loader_refuses_name(name));
    REQUIRE(profile_key_problem("name", name));
    const auto run = test::run_captured(test::tfwsl_cli, {"profile", "export", "--name", name});
    CHECK(run.code == 2);
    CHECK(run.out.empty());
    CHECK(run.err.starts_with("tfwsl profile export: --name: profile name '" + name + "' may only use letters"));
    CHECK(run.err.find("nothing written") != std::string::npos);
  }
  for (const std::string name :
       std::initializer_list<std::string>{"this-machine", "tf-2.15_team", std::string(64, 'n')}) {
    CHECK_FALSE(loader_refuses_name(name));
    CHECK_FALSE(profile_key_problem("name", name));
  }
}
