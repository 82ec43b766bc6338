#include "win/tasks/provision_cloud_init.hpp"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "common/compat/compat_db.hpp"
#include "common/profile/profile_loader.hpp"
#include "common/provision/env_file.hpp"
#include "common/provision/provision_plan.hpp"

using namespace tfwsl;

namespace {

provision::ProvisionPlan cloud_init_plan(const std::string& user) {
  auto profile = load_valid_profile("tf-2.15-cuda-12.2");
  REQUIRE(profile.has_value());
  auto plan = provision::build_provision_plan(*profile, builtin_compat_db(), cli::cloud_init_plan_settings(user));
  REQUIRE(plan.has_value());
  return *plan;
}

// runcmd's commands, less its first entry ("set -e") and the steps' announcements (echo).
std::vector<std::vector<std::string>> runcmd_of(const YAML::Node& doc) {
  std::vector<std::vector<std::string>> commands;
  for (const auto& item : doc["runcmd"])
    if (item.IsSequence() && item[0].as<std::string>() != "echo")
      commands.push_back(item.as<std::vector<std::string>>());
  return commands;
}

// The plan's argv, found whole at the end of a runcmd entry (after its env or runuser prefix).
bool ends_with_argv(const std::vector<std::string>& entry, const std::vector<std::string>& argv) {
  return entry.size() >= argv.size() && std::equal(argv.rbegin(), argv.rend(), entry.rbegin());
}

}  // namespace

TEST_CASE(
    "provision cloud-init: the plan's distro commands in its order, root's with apt's environment, the user's as the "
    "user",
    "[provision][cloud-init]") {
  const auto plan = cloud_init_plan("ada");
  auto text = cli::cloud_init_user_data(plan);
  REQUIRE(text.has_value());
  CHECK(text->rfind("#cloud-config\n", 0) == 0);
  const YAML::Node doc = YAML::Load(*text);
  CHECK(doc["runcmd"][0].as<std::string>() == "set -e");  // the first failure stops the rest, as in the agent
  const auto runcmd = runcmd_of(doc);
  std::size_t at = 0;
  for (const auto& step : plan.distro_steps)
    for (const auto& command : step.commands) {
      while (at < runcmd.size() && !ends_with_argv(runcmd[at], command.argv)) ++at;
      REQUIRE(at < runcmd.size());  // found, after the previous step's: the same order
      const auto& entry = runcmd[at];
      if (command.as == provision::RunsAs::user) {
        CHECK(std::vector<std::string>(entry.begin(), entry.begin() + 4) ==
              std::vector<std::string>{"runuser", "-u", "ada", "--"});
      } else {
        CHECK(entry.front() == "env");
        CHECK(std::find(entry.begin(), entry.end(), "DEBIAN_FRONTEND=noninteractive") != entry.end());
      }
    }
  CHECK(runcmd.front() == std::vector<std::string>{"env", "APT_LISTCHANGES_FRONTEND=none",
                                                   "DEBIAN_FRONTEND=noninteractive", "LC_ALL=C", "dpkg",
                                                   "--force-confdef", "--force-confold", "--configure", "-a"});
  // The env.file step, after TensorFlow's install: the staged bytes put in place by the user.
  CHECK(runcmd.back() == std::vector<std::string>{"runuser", "-u", "ada", "--", "install", "-D", "-m", "0644",
                                                  cli::k_cloud_init_env_stage,
                                                  "/home/ada/.config/tfwsl/tf-2.15-cuda-12.2.env"});
  CHECK(plan.venv.rfind("/home/ada/", 0) == 0);
}

TEST_CASE(
    "provision cloud-init: the user is created and made WSL's default, the environment file's bytes are the agent's",
    "[provision][cloud-init]") {
  const auto plan = cloud_init_plan("ada");
  const YAML::Node doc = YAML::Load(*cli::cloud_init_user_data(plan));
  CHECK(doc["users"][0]["name"].as<std::string>() == "ada");
  CHECK(doc["users"][0]["groups"][0].as<std::string>() == "sudo");
  CHECK(doc["write_files"][0]["path"].as<std::string>() == "/etc/wsl.conf");
  CHECK(doc["write_files"][0]["content"].as<std::string>() == "[user]\ndefault=ada\n");
  CHECK(doc["write_files"][0]["append"].as<bool>());
  CHECK(doc["write_files"][1]["path"].as<std::string>() == cli::k_cloud_init_env_stage);
  CHECK(doc["write_files"][1]["content"].as<std::string>() == provision::env_file_text(plan));
  CHECK(doc["write_files"][1]["permissions"].Tag() == "!");  // quoted: "0644" stays a string, not octal 420
}

TEST_CASE("provision cloud-init: no user, or one useradd would refuse, is an error naming --user",
          "[provision][cloud-init]") {
  for (const std::string user : {"", "Ada Lovelace", "root;rm", "-x"}) {
    auto text = cli::cloud_init_user_data(cloud_init_plan(user));
    REQUIRE_FALSE(text.has_value());
    CHECK(text.error().code == ErrorCode::invalid_input);
    CHECK(text.error().message.find("pass --user NAME") != std::string::npos);
  }
}

TEST_CASE(
    "provision cloud-init: every distro step is announced in the plan's order, the agent's own work named as such",
    "[provision][cloud-init]") {
  const auto plan = cloud_init_plan("ada");
  const YAML::Node doc = YAML::Load(*cli::cloud_init_user_data(plan));
  std::vector<std::string> announced;
  for (const auto& item : doc["runcmd"])
    if (item.IsSequence() && item[0].as<std::string>() == "echo") announced.push_back(item[1].as<std::string>());
  REQUIRE(announced.size() == plan.distro_steps.size());
  for (std::size_t i = 0; i < announced.size(); ++i) {
    const auto& step = plan.distro_steps[i];
    CHECK(announced[i].rfind(fmt::format("tfwsl provision: {}: ", step.definition->id), 0) == 0);
    const bool agent_only = step.commands.empty() && step.definition->id != "env.file";
    CHECK((announced[i].find("the agent's own work") != std::string::npos) == agent_only);
  }
}

TEST_CASE(
    "provision cloud-init: a profile's non-ASCII text is printed escaped and read back as the agent's exact bytes",
    "[provision][cloud-init]") {
  ProfileLoadOptions options;
  options.overrides = {"env.GREETING=\"gr\u00fc\u00df \u202eevil\""};
  auto profile = load_profile("tf-2.15-cuda-12.2", options);
  REQUIRE(profile.ok());
  auto plan =
      provision::build_provision_plan(*profile.profile, builtin_compat_db(), cli::cloud_init_plan_settings("ada"));
  REQUIRE(plan.has_value());
  const auto text = cli::cloud_init_user_data(*plan);
  REQUIRE(text.has_value());
  CHECK(std::all_of(text->begin(), text->end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; }));
  const YAML::Node doc = YAML::Load(*text);
  const std::string env = doc["write_files"][1]["content"].as<std::string>();
  CHECK(env == provision::env_file_text(*plan));
  CHECK(env.find("gr\xc3\xbc\xc3\x9f \xe2\x80\xae"
                 "evil") != std::string::npos);
}
