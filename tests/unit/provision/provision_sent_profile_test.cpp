// The distro half is sent the profile this side loaded (win/tasks/provision_run.hpp): the agent is
// started with `--profile -` and reads the merged profile on stdin, so it plans from the same merge
// (extends and --set applied) and never opens a file of the user's as root.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>

#include "common/profile/profile_loader.hpp"
#include "win/tasks/provision_run.hpp"

using namespace tfwsl;

TEST_CASE("provision: the agent is asked with --profile - and no path or override of the user's") {
  const cli::ProvisionRunRequest request{"C:\\team\\profile.yaml", true, "me", "", {"wsl.memory=24GB"}};
  const auto argv = cli::agent_provision_args(request, true);
  CHECK(argv == std::vector<std::string>{"provision", "--profile", "-", "--platform", "wsl", "--json", "--check",
                                         "--user", "me"});
}

TEST_CASE("provision: the profile sent is the merge this side made, and the agent reads it back whole") {
  const auto folder = std::filesystem::temp_directory_path() / "tfwsl-sent-profile-test";
  std::filesystem::create_directories(folder);
  const auto file = folder / "team.yaml";
  std::ofstream(file) << "name: team\nextends: builtin:tf-2.15-cuda-12.2\nwsl: { memory: 16GB }\n";
  const cli::ProvisionRunRequest request{file.string(), false, "", "", {"wsl.processors=6"}};
  const auto yaml = cli::sent_profile(request);
  REQUIRE(yaml);
  CHECK(yaml->find("extends") == std::string::npos);
  const auto sent = load_sent_profile(*yaml, "the profile on standard input");
  REQUIRE(sent);
  ProfileLoadOptions options;
  options.overrides = request.overrides;
  const auto here = load_valid_profile(file.string(), options);
  REQUIRE(here);
  CHECK(*sent->name == "team");
  CHECK(*sent->wsl_memory == *here->wsl_memory);
  CHECK(*sent->wsl_processors == 6);
  CHECK(*sent->tensorflow_version == *here->tensorflow_version);
  std::filesystem::remove_all(folder);
}

TEST_CASE("provision: a sent profile past the size a profile may have is named, not parsed") {
  const auto refused = load_sent_profile(std::string(k_max_profile_bytes + 1, '#'), "the profile on standard input");
  REQUIRE_FALSE(refused);
  CHECK_THAT(refused.error().message, Catch::Contains("the profile on standard input"));
}
