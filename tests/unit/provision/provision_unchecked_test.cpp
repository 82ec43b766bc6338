// tfwsl provision --check when the distro half gives no recap: every distro step is still listed,
// "not checked: <reason>", so the recap names all of them.
#include <catch2/catch.hpp>

#include "common/compat/compat_db.hpp"
#include "common/profile/profile_loader.hpp"
#include "common/profile/profile_source.hpp"
#include "win/tasks/provision_run.hpp"

using namespace tfwsl;

TEST_CASE("provision: distro steps not checked are each listed with the reason") {
  auto profile = load_valid_profile(default_profile_name());
  REQUIRE(profile);
  auto plan = provision::build_provision_plan(*profile, builtin_compat_db(), provision::PlanSettings{});
  REQUIRE(plan);
  const auto rows = cli::unchecked_distro_steps(*plan, "the distro half did not run");
  REQUIRE(rows.size() == plan->distro_steps.size());
  REQUIRE(rows.size() > 5);
  for (const auto& row : rows) {
    CHECK(row["result"] == "skipped");
    CHECK(row["message"] == "not checked: the distro half did not run");
    CHECK(!row["title"].get<std::string>().empty());
  }
  CHECK(rows[4]["id"] == std::string(plan->distro_steps[4].definition->id));
}

TEST_CASE("provision: a distro half that ends without a recap names where its step logs are") {
  auto none = cli::recap_from_agent_answer("", "tfwsl-agent: killed\n", 137, true);
  REQUIRE_FALSE(none);
  CHECK(none.error().message.find("exited 137 without a recap: tfwsl-agent: killed") != std::string::npos);
  CHECK(none.error().message.find("step logs: /var/lib/tfwsl/provision/logs in the distro") != std::string::npos);
  auto recap = cli::recap_from_agent_answer(R"({"recap": {"steps": []}})", "", 0, true);
  REQUIRE(recap);
  CHECK((*recap)["steps"].is_array());
}
