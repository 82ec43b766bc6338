#include "common/provision/provision_plan.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <catch2/catch.hpp>

#include "common/compat/compat_db.hpp"
#include "common/profile/profile_loader.hpp"
#include "common/profile/profile_source.hpp"
#include "common/provision/apt_package_name.hpp"

using namespace tfwsl;
using namespace tfwsl::provision;

namespace {

Profile default_profile() {
  auto p = load_valid_profile(default_profile_name());
  REQUIRE(p);
  return *p;
}

// The loader now drops an item the apt rule refuses: the plan's own refusal is shown on a profile
// that holds the name anyway (as a profile built in code could).
Profile profile_with_apt(const std::string& name) {
  Profile p = default_profile();
  p.apt_packages.value = std::vector<std::string>{"python3-venv", name};
  return p;
}

Profile profile_with_override(const std::string& assignment) {
  ProfileLoadOptions options;
  options.validate = false;  // build_provision_plan validates: the refusal must come from there
  options.overrides = {assignment};
  auto r = load_profile(default_profile_name(), options);
  REQUIRE(r.profile);
  return *r.profile;
}

std::vector<std::string> ids(const std::vector<PlannedStep>& steps) {
  std::vector<std::string> out;
  for (const auto& s : steps) out.emplace_back(s.definition->id);
  return out;
}

}  // namespace

TEST_CASE("the default profile's plan: host steps then distro steps, in order, with exact package names") {
  auto plan = build_provision_plan(default_profile(), builtin_compat_db(), PlanSettings{});
  REQUIRE(plan);
  CHECK(ids(plan->host_steps) == std::vector<std::string>{"wsl.current", "wsl.vmp", "distro.installed", "distro.wsl2",
                                                          "wslconfig.values", "wslconfig.gpu", "distro.user"});
  CHECK(ids(plan->distro_steps) == std::vector<std::string>{"dpkg.health", "driver.none-in-wsl", "apt.prerequisites",
                                                            "cuda.repository", "cuda.toolkit", "apt.packages",
                                                            "python.venv", "tensorflow.install", "tensorflow.fixups",
                                                            "env.file", "tensorflow.verify"});
  CHECK(plan->find("distro.installed")->commands.at(0).argv ==
        std::vector<std::string>{"wsl.exe", "--install", "-d", "Ubuntu-22.04", "--no-launch"});
  CHECK(plan->find("cuda.toolkit")->packages == std::vector<std::string>{"cuda-toolkit-12-2"});
  CHECK(plan->find("cuda.repository")->packages == std::vector<std::string>{"cuda-keyring"});
  CHECK(*plan->find("cuda.repository")->value("keyring_url") ==
        "https://developer.download.nvidia.com/compute/cuda/repos/wsl-ubuntu/x86_64/cuda-keyring_1.1-1_all.deb");
  CHECK(plan->find("apt.packages")->packages == std::vector<std::string>{"python3-venv", "python3-pip"});
  CHECK(plan->find("tensorflow.install")->packages ==
        std::vector<std::string>{"tensorflow[and-cuda]==2.15.*", "numpy<2"});
  CHECK(plan->python == "python3.10");
  CHECK(plan->venv == "~/.venvs/tf-2.15");
}

TEST_CASE("apt runs non-interactively, with the lock timeout and the conffile defaults") {
  AptSettings apt;
  apt.lock_timeout_s = 7;
  CHECK(apt_install_argv({"cuda-toolkit-12-2"}, apt) ==
        std::vector<std::string>{"apt-get", "-q", "-y", "--no-install-recommends", "-o", "DPkg::Lock::Timeout=7", "-o",
                                 "Dpkg::Options::=--force-confdef", "-o", "Dpkg::Options::=--force-confold", "install",
                                 "cuda-toolkit-12-2"});
  CHECK(apt_environment().at("DEBIAN_FRONTEND") == "noninteractive");
  CHECK(dpkg_repair_argv() ==
        std::vector<std::string>{"dpkg", "--force-confdef", "--force-confold", "--configure", "-a"});
}

TEST_CASE("pip is the venv's, as the user, and --no-index only with a wheel folder") {
  auto plan = build_provision_plan(default_profile(), builtin_compat_db(), [] {
    PlanSettings s;
    s.user = "me";
    s.home = "/home/me";
    s.pip_find_links = "/wheels";
    return s;
  }());
  REQUIRE(plan);
  const auto& pip = plan->find("tensorflow.install")->commands.at(0);
  CHECK(pip.as == RunsAs::user);
  CHECK(pip.argv.at(0) == "/home/me/.venvs/tf-2.15/bin/python");
  CHECK(std::find(pip.argv.begin(), pip.argv.end(), "--no-index") != pip.argv.end());
  CHECK(pip_install_argv("/v", {"x"}, "") == std::vector<std::string>{"/v/bin/python", "-m", "pip", "install",
                                                                      "--disable-pip-version-check", "--no-input",
                                                                      "x"});
  CHECK(plan->find("python.venv")->commands.at(0).as == RunsAs::user);
  CHECK(plan->find("cuda.toolkit")->commands.at(1).as == RunsAs::root);
}

TEST_CASE("native Linux: no host steps, the driver is checked (never installed), the Ubuntu repository") {
  PlanSettings settings;
  settings.inside_wsl = false;
  auto plan = build_provision_plan(default_profile(), builtin_compat_db(), settings);
  REQUIRE(plan);
  CHECK(plan->host_steps.empty());
  REQUIRE(plan->find("driver.linux"));
  CHECK(plan->find("driver.linux")->commands.empty());
  CHECK(plan->find("driver.none-in-wsl") == nullptr);
  CHECK(plan->find("cuda.repository")->value("keyring_url")->find("/repos/ubuntu2204/") != std::string::npos);
}

TEST_CASE("a profile asking for cuda, cuda-12-x or cuda-drivers is refused with the reason") {
  for (const char* package : {"cuda", "cuda-12-2", "cuda-drivers", "cuda-drivers-535", "nvidia-driver-535"}) {
    INFO(package);
    auto plan = build_provision_plan(profile_with_override(fmt::format("packages.apt=[python3-venv, {}]", package)),
                                     builtin_compat_db(), PlanSettings{});
    REQUIRE_FALSE(plan);
    CHECK(plan.error().code == ErrorCode::invalid_input);
    CHECK_THAT(plan.error().describe(),
               Catch::Contains(fmt::format("'{}' installs a Linux NVIDIA driver inside WSL", package)));
  }
}

// Issue 22, item 19: `profile validate` accepted `--allow-unauthenticated`, which the plan then
// refused. One rule (common/profile/apt_package_rule.hpp): what validation passes, the plan takes.
TEST_CASE("profile validation and the provisioning plan apply the same apt package-name rule") {
  for (const char* name : {"--allow-unauthenticated", "-oAPT::Get::Assume-Yes=1", "cuda-toolkit-12-2=12.2.2-1", "Foo",
                           "/tmp/x.deb", "x", "build-essential", "libstdc++6", "python3.10-venv", "g++"}) {
    INFO(name);
    ProfileLoadOptions options;
    options.overrides = {fmt::format("packages.apt=[python3-venv, \"{}\"]", name)};
    const auto validated = load_profile(default_profile_name(), options);
    auto plan = build_provision_plan(profile_with_apt(name), builtin_compat_db(), PlanSettings{});
    CHECK(validated.ok() == plan.has_value());
    if (!validated.ok()) {
      bool named = false;
      for (const auto& issue : validated.issues)
        named = named || issue.message.find(fmt::format("'{}'", name)) != std::string::npos;
      CHECK(named);
    }
  }
}

TEST_CASE("package names outside the allowlist pattern never reach apt") {
  for (const char* bad : {"-oAPT::Get::Assume-Yes=1", "../x.deb", "Foo", "a", "x y", "pkg;rm", "/tmp/x.deb"}) {
    INFO(bad);
    CHECK_FALSE(looks_like_apt_package_name(bad));
    CHECK_FALSE(check_apt_package(bad, true));
  }
  for (const char* good : {"python3-venv", "libstdc++6", "cuda-toolkit-12-2", "g++", "python3.10-venv"}) {
    INFO(good);
    CHECK(check_apt_package(good, true));
  }
  auto plan = build_provision_plan(profile_with_apt("-oDebug::x=1"), builtin_compat_db(), PlanSettings{});
  REQUIRE_FALSE(plan);
  CHECK_THAT(plan.error().describe(), Catch::Contains("is an option, not an apt package name"));
}

TEST_CASE("every catalogued step has a why and a public source, and ids are unique") {
  std::vector<std::string> seen;
  for (const auto& step : provision_catalogue()) {
    INFO(step.id);
    CHECK_FALSE(step.why.empty());
    CHECK(step.source.substr(0, 8) == "https://");
    CHECK(std::find(seen.begin(), seen.end(), step.id) == seen.end());
    seen.emplace_back(step.id);
  }
}

TEST_CASE("the plan's JSON names each step's packages and commands") {
  auto plan = build_provision_plan(default_profile(), builtin_compat_db(), PlanSettings{});
  REQUIRE(plan);
  const auto j = plan_to_json(*plan);
  CHECK(j.at("distro") == "Ubuntu-22.04");
  CHECK(j.at("distro_steps").at(4).at("id") == "cuda.toolkit");
  CHECK(j.at("distro_steps").at(4).at("packages").at(0) == "cuda-toolkit-12-2");
  CHECK(j.at("host_steps").at(2).at("commands").at(0).at("argv").at(4) == "--no-launch");
  CHECK(expand_home("~/.venvs/x", "/home/u") == "/home/u/.venvs/x");
  CHECK(expand_home("/abs", "/home/u") == "/abs");
}

TEST_CASE("the environment file's step counts its variables in words that fit the count") {
  Profile p = default_profile();
  p.env.resize(1);
  p.env.front().name = "TF_FORCE_GPU_ALLOW_GROWTH";
  p.env.front().value.value = "true";
  auto plan = build_provision_plan(p, builtin_compat_db(), PlanSettings{});
  REQUIRE(plan);
  CHECK(plan->find("env.file")->changes.find("(1 variable)") != std::string::npos);
}
