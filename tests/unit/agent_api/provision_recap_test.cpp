// The provision recap on the wire (common/agent_api/provision_recap.hpp): what the agent writes,
// tfwsl reads back whole, and a recap that is not the wire's is refused by name.
#include "common/agent_api/provision_recap.hpp"

#include <catch2/catch.hpp>

using namespace tfwsl;
using agent_api::StepResult;

namespace {

agent_api::ProvisionRecap full_recap() {
  agent_api::ProvisionRecap r;
  r.check_mode = true;
  r.interrupted_step = "venv";
  r.run = "20261207T0900";
  r.state_dir = "/var/lib/tfwsl/provision";
  r.steps = {
      {"apt-packages", "Packages", StepResult::ok, "present", ""},
      {"venv", "The venv", StepResult::changed, "would create ~/.venvs/tf", "/var/lib/tfwsl/provision/logs/venv.log"},
      {"pip", "TensorFlow", StepResult::failed, "pip failed", "/var/lib/tfwsl/provision/logs/pip.log"},
      {"gpu-check", "GPU check", StepResult::skipped, "not run", ""}};
  return r;
}

}  // namespace

TEST_CASE("provision recap: every field round-trips through the wire") {
  const auto sent = full_recap();
  const auto back = agent_api::parse_provision_recap(agent_api::to_json(sent));
  REQUIRE(back);
  CHECK(back->check_mode);
  CHECK(back->interrupted_step == sent.interrupted_step);
  CHECK(back->run == sent.run);
  CHECK(back->state_dir == sent.state_dir);
  REQUIRE(back->steps.size() == sent.steps.size());
  for (std::size_t i = 0; i < sent.steps.size(); ++i) {
    CHECK(back->steps[i].id == sent.steps[i].id);
    CHECK(back->steps[i].title == sent.steps[i].title);
    CHECK(back->steps[i].result == sent.steps[i].result);
    CHECK(back->steps[i].message == sent.steps[i].message);
    CHECK(back->steps[i].log == sent.steps[i].log);
  }
  CHECK(agent_api::to_json(*back) == agent_api::to_json(sent));
}

TEST_CASE("provision recap: the counts are written from the steps and read back typed") {
  const auto j = agent_api::to_json(full_recap());
  CHECK(j["counts"] == nlohmann::json{{"ok", 1}, {"changed", 1}, {"failed", 1}, {"skipped", 1}});
  CHECK_FALSE(j["steps"][0].contains("log"));  // an empty log is absent, as the schema has it
  const auto counts = agent_api::parse_recap_counts(j["counts"]);
  REQUIRE(counts);
  CHECK(counts->failed == 1);
  CHECK(full_recap().exit_code() == 2);
}

TEST_CASE("provision recap: a recap that is not the wire's is refused, naming the field") {
  auto j = agent_api::to_json(full_recap());
  j["steps"][1]["result"] = "done";
  auto refused = agent_api::parse_provision_recap(j);
  REQUIRE_FALSE(refused);
  CHECK_THAT(refused.error().message, Catch::Contains("result"));
  j = agent_api::to_json(full_recap());
  j["counts"]["failed"] = -1;
  auto bad_counts = agent_api::parse_recap_counts(j["counts"]);
  REQUIRE_FALSE(bad_counts);
  CHECK_THAT(bad_counts.error().message, Catch::Contains("counts.failed"));
  CHECK_FALSE(agent_api::parse_provision_recap(nlohmann::json{{"check_mode", false}}));  // no steps
}
