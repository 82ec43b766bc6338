// The commands the judge and provision's plan print for a person to paste (issue 22, item 6): a
// path or name holding shell characters stays one quoted argument (bash inside the distro,
// PowerShell in Windows), never code.
#include <catch2/catch.hpp>
#include <string>

#include "common/judge/assess.hpp"
#include "common/provision/provision_catalogue.hpp"
#include "common/provision/provision_plan.hpp"
#include "tests/support/judge_inputs.hpp"
#include "tests/support/report_lookup.hpp"

using namespace tfwsl;
using namespace tfwsl::judge;
using agent_api::LinuxFacts;
using tfwsl::test::require_check;

TEST_CASE("the judge's fixes quote a hostile data path for PowerShell and package names for bash", "[judge][quoting]") {
  auto f = test::wsl2_distro_facts();
  f.system.data_paths = {{"/mnt/c/R&D $(touch PWNED)", "/mnt/c", "9p", true}};
  const auto data = require_check(assess(f, test::default_check_policy()), "data.location");
  // data push is typed in Windows, so the folder is named as Windows names it and quoted for PowerShell.
  CHECK(data.fix.find("tfwsl data push 'C:\\R&D $(touch PWNED)'") != std::string::npos);
  f = test::wsl2_distro_facts();
  f.driver.packages = {"nvidia-driver-535", "evil;rm"};
  const auto driver = require_check(assess(f, test::default_check_policy()), "linux.no-linux-driver");
  CHECK(driver.fix.find("sudo apt-get remove --purge nvidia-driver-535 'evil;rm'") != std::string::npos);
}

TEST_CASE("provision's plan prints each command quoted for where it runs", "[provision][quoting]") {
  const provision::StepDefinition host_step{
      "wsl.current", provision::StepScope::host, provision::RunsAs::host, "t", "w", "s"};
  const provision::StepDefinition distro_step{
      "env.file", provision::StepScope::distro, provision::RunsAs::user, "t", "w", "s"};
  provision::ProvisionPlan plan;
  plan.host_steps.push_back(
      {&host_step, {}, {{provision::RunsAs::host, {"wsl", "--install", "-d", "My Distro"}}}, {}, "x"});
  plan.distro_steps.push_back(
      {&distro_step, {}, {{provision::RunsAs::user, {"mkdir", "-p", "/home/me/R&D $(touch PWNED)"}}}, {}, "y"});
  const std::string text = provision::render_plan(plan);
  CHECK(text.find("run as host: (PowerShell) wsl --install -d 'My Distro'\n") != std::string::npos);
  CHECK(text.find("run as user: (bash) mkdir -p '/home/me/R&D $(touch PWNED)'\n") != std::string::npos);
}
