#pragma once
// The built-in profile's provisioning plan for one distro user, for the tests that provision as a
// real scratch user (provision_as_user_test.cpp, provision_probe_env_test.cpp).

#include <catch2/catch.hpp>

#include "common/compat/compat_db.hpp"
#include "common/profile/profile_loader.hpp"
#include "common/profile/profile_source.hpp"
#include "common/provision/provision_plan.hpp"
#include "linux/provision/distro_step_checks.hpp"

namespace tfwsl::test {

inline provision::ProvisionPlan user_provision_plan(const provision::DistroUser& user) {
  auto profile = load_valid_profile(default_profile_name());
  REQUIRE(profile);
  provision::PlanSettings settings;
  settings.user = user.name;
  settings.home = user.home;
  auto plan = provision::build_provision_plan(*profile, builtin_compat_db(), settings);
  REQUIRE(plan);
  return *plan;
}

}  // namespace tfwsl::test
