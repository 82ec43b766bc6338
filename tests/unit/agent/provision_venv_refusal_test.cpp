// Issue 38, item 10: `provision --check` and `--dry-run` promised to create a venv in a folder
// others may write ("would change: ... -> creates"), which the apply then refused. With a real
// unprivileged user (skipped without root): the check fails that step with the apply's own words,
// and the dry-run's plan says the step is refused.
#include <catch2/catch.hpp>
#include <string>

#include "common/compat/compat_db.hpp"
#include "common/profile/profile_loader.hpp"
#include "common/profile/profile_source.hpp"
#include "common/provision/provision_plan.hpp"
#include "linux/provision/provision_executor.hpp"
#include "linux/provision/step_apply.hpp"
#include "tests/support/test_environment.hpp"
#include "tests/unit/agent/scratch_user.hpp"

using namespace tfwsl;
using namespace tfwsl::provision;
namespace fs = std::filesystem;

namespace {

constexpr const char* k_venv_refusal = "not in a folder only root may write";

// The built-in profile's plan for the user, reduced to its python.venv step, with the venv in a
// folder everyone may write (as /tmp).
struct SharedVenvScene {
  test::ScratchUser account;
  fs::path shared = account.root_folder("shared", 01777);
  ProvisionPlan plan;

  SharedVenvScene() {
    auto profile = load_valid_profile(default_profile_name());
    REQUIRE(profile);
    PlanSettings settings;
    settings.user = account.user().name;
    settings.home = account.user().home;
    auto built = build_provision_plan(*profile, builtin_compat_db(), settings);
    REQUIRE(built);
    plan = *built;
    plan.venv = (shared / "tfwsl/venv").string();
    PlannedStep venv = *plan.find("python.venv");
    venv.commands = {{RunsAs::user, {"/bin/mkdir", "-p", plan.venv}}};  // what `python3 -m venv` would create
    plan.distro_steps = {venv};
  }

  StepRecord run(bool check_only) const {
    ExecutorSettings s;
    s.state_dir = account.base() / "state";
    s.user = account.user();
    s.check_only = check_only;
    auto recap = run_distro_steps(plan, s);
    REQUIRE(recap);
    REQUIRE(recap->steps.size() == 1);
    return recap->steps.front();
  }
};

}  // namespace

TEST_CASE("provision --check fails a venv in a folder others may write as the apply does, in its words") {
  SharedVenvScene s;
  const auto checked = s.run(true);
  CHECK(to_string(checked.result) == std::string("failed"));
  CHECK_THAT(checked.message, Catch::Contains(k_venv_refusal) && !Catch::Contains("would change"));
  const auto applied = s.run(false);
  CHECK(to_string(applied.result) == std::string("failed"));
  CHECK(applied.message == checked.message);
  test::TempDir logs;
  ApplyContext c;
  c.plan = &s.plan;
  c.user = &s.account.user();
  c.logs = {logs.path() / "python.venv.log", logs.path() / "processes.jsonl"};
  const auto refused = apply_distro_step(*s.plan.find("python.venv"), c);
  REQUIRE_FALSE(refused);
  CHECK(refused.error().message + " (" + refused.error().detail + ")" == checked.message);
  CHECK(fs::is_empty(s.shared));
}

TEST_CASE("provision --dry-run's plan says a venv in a folder others may write is refused, in the apply's words") {
  SharedVenvScene s;
  const auto applied = s.run(false);
  note_refusals(s.plan, s.account.user());
  CHECK(s.plan.find("python.venv")->changes == "refused: " + applied.message);
  CHECK_THAT(applied.message, Catch::Contains(k_venv_refusal));
}
