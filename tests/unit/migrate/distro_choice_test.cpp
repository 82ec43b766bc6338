// choose_distro (win/migrate/distro_choice.hpp): migrate sets the project up in an installed WSL 2
// Ubuntu whose python3 the target TensorFlow supports, rather than installing the profile's own
// distro; and the plan says which, and why, in one line (issue 43, item 5).
#include "win/migrate/distro_choice.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <optional>
#include <string>
#include <vector>

#include "tests/unit/migrate/fake_project_files.hpp"
#include "win/migrate/apply_plan.hpp"
#include "win/migrate/migrate_plan.hpp"

using namespace tfwsl;
using namespace tfwsl::migrate;

namespace {

MigratePlan plan_with(const std::string& requirements, std::optional<std::vector<std::string>> installed,
                      const std::string& pyproject = "") {
  static const auto profiles = shipped_wsl_profiles();
  migrate::test::FakeProjectFiles fs;
  fs.files["requirements.txt"] = requirements;
  if (!pyproject.empty()) fs.files["pyproject.toml"] = pyproject;
  PlanInput input{fs, "proj", "~/projects", "~/datasets", false, builtin_migrate_facts(), profiles};
  input.installed_distros = std::move(installed);
  auto plan = build_plan(input);
  REQUIRE(plan);
  REQUIRE(plan->decision.target);
  return *plan;
}

std::string distro_reason(const MigratePlan& plan) {
  for (const auto& r : plan.decision.reasons)
    if (r.starts_with("distro ")) return r;
  return {};
}

}  // namespace

TEST_CASE("TF 2.16 with Ubuntu 22.04 installed: 22.04's Python 3.10 runs it, no second distro", "[migrate][distro]") {
  const auto plan = plan_with("tensorflow==2.16.1\n", std::vector<std::string>{"Ubuntu-22.04", "Debian"});
  const auto& target = *plan.decision.target;
  CHECK(target.name == "tf-2.16-cuda-12.3");
  CHECK(target.distro == "Ubuntu-22.04");
  CHECK(target.python == "3.10");
  CHECK(target.user_distro);
  CHECK(distro_reason(plan) ==
        "distro Ubuntu-22.04 (installed here) instead of the profile's Ubuntu-24.04: its Python 3.10 runs TF 2.16, "
        "so no second distribution is installed");
  CHECK(profile_overrides(target) == std::vector<std::string>{"distro=Ubuntu-22.04", "python.version='3.10'"});
  const std::string yaml = project_profile_yaml(plan);
  INFO(yaml);
  CHECK(yaml.find("extends: builtin:tf-2.16-cuda-12.3\n") != std::string::npos);
  CHECK(yaml.find("distro: Ubuntu-22.04\n") != std::string::npos);
  CHECK(yaml.find("version: \"3.10\"") != std::string::npos);
  CHECK(render_text(plan).find("instead of the profile's Ubuntu-24.04") != std::string::npos);
}

TEST_CASE("the profile's own distro when it is installed, or a new one said as such", "[migrate][distro]") {
  auto plan = plan_with("tensorflow==2.16.1\n", std::vector<std::string>{"Ubuntu-22.04", "Ubuntu-24.04"});
  CHECK(plan.decision.target->distro == "Ubuntu-24.04");
  CHECK_FALSE(plan.decision.target->user_distro);
  CHECK(distro_reason(plan) == "distro Ubuntu-24.04: the profile's, installed here");
  CHECK(profile_overrides(*plan.decision.target).empty());
  CHECK(project_profile_yaml(plan).find("distro:") == std::string::npos);
  // Ubuntu 20.04's Python 3.8 is older than any TF 2.16 supports (3.9-3.12); a plain "Ubuntu" does
  // not say its release.
  plan = plan_with("tensorflow==2.16.1\n", std::vector<std::string>{"Ubuntu-20.04", "Ubuntu"});
  CHECK(plan.decision.target->distro == "Ubuntu-24.04");
  CHECK(
      distro_reason(plan).starts_with("distro Ubuntu-24.04: a new distribution is installed (wsl --install -d "
                                      "Ubuntu-24.04)"));
  plan = plan_with("tensorflow==2.15.1\n", std::vector<std::string>{});
  CHECK(distro_reason(plan).starts_with("distro Ubuntu-22.04: a new distribution is installed"));
}

TEST_CASE("the project's declared Python decides too, and unknown distros add no line", "[migrate][distro]") {
  const auto plan = plan_with("tensorflow==2.16.1\n", std::vector<std::string>{"Ubuntu-22.04"},
                              "[project]\nname = \"p\"\nversion = \"1\"\nrequires-python = \">=3.11\"\n");
  CHECK(plan.decision.target->distro == "Ubuntu-24.04");
  CHECK(distro_reason(plan).find("a new distribution is installed") != std::string::npos);
  const auto unknown = plan_with("tensorflow==2.16.1\n", std::nullopt);
  CHECK(unknown.decision.target->distro == "Ubuntu-24.04");
  CHECK(distro_reason(unknown).empty());
}
