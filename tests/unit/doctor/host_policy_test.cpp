// The doctor's host policy comes from the profile and the compatibility data, not from literals.
#include "win/doctor/host_policy.hpp"

#include <catch2/catch.hpp>

#include "common/compat/compat_db.hpp"
#include "common/profile/profile_loader.hpp"

using namespace tfwsl;

namespace {

Profile profile_with_toolkit(const char* toolkit) {
  Profile p;
  if (toolkit) p.cuda_toolkit.value = toolkit;
  return p;
}

}  // namespace

TEST_CASE("the default profile asks for build 19044 and the CUDA 12 floor driver 528.33") {
  auto policy = doctor::host_policy_for_profile("tf-2.15-cuda-12.2", builtin_compat_db());
  REQUIRE(policy);
  CHECK(policy->profile_name == "tf-2.15-cuda-12.2");
  CHECK(policy->min_windows_build == 19044);
  CHECK(policy->min_driver == "528.33");
}

TEST_CASE("every CUDA 12 profile shares the minor-version floor, CUDA 11 has its own") {
  auto p125 = doctor::host_policy_for_profile("tf-2.18-cuda-12.5", builtin_compat_db());
  REQUIRE(p125);
  CHECK(p125->min_driver == "528.33");
  auto p118 = doctor::host_policy_for(profile_with_toolkit("11.8"), "old", builtin_compat_db());
  REQUIRE(p118);
  CHECK(p118->min_driver == "452.39");
}

TEST_CASE("without a minor-version floor the toolkit's own Windows minimum applies") {
  auto db = CompatDb::from_yaml(
      "schema: 1\n"
      "tensorflow:\n"
      "  - { release: \"2.15\", first_version: \"2.15.0\", python: \"3.9-3.11\", cuda: \"12.2\", cudnn: \"8.9\","
      " min_compute_capability: \"5.0\" }\n"
      "packaging: { and_cuda_extra_from: \"2.14\", tensorflow_gpu_removed_in: \"2.12\" }\n"
      "native_windows_gpu: { last_release: \"2.10\", releases: [ { release: \"2.10\", python: \"3.7-3.10\","
      " cuda: \"11.2\", cudnn: \"8.1\" } ] }\n"
      "cuda_drivers: [ { cuda: \"12.2.0\", linux: \"535.54.03\", windows: \"536.25\" } ]\n"
      "cuda_minor_version_floor: []\n"
      "ubuntu_python: []\n"
      "wsl_default_ubuntu: \"26.04\"\n"
      "wsl_gpu_min_windows_build: 22000\n",
      "test.yaml");
  INFO((db ? std::string() : db.error().message));
  REQUIRE(db);
  auto policy = doctor::host_policy_for(profile_with_toolkit("12.2"), "p", *db);
  REQUIRE(policy);
  CHECK(policy->min_driver == "536.25");
  CHECK(policy->min_windows_build == 22000);
}

TEST_CASE("a profile without a toolkit sets no driver floor, a garbled toolkit is an error naming it") {
  auto none = doctor::host_policy_for(profile_with_toolkit(nullptr), "p", builtin_compat_db());
  REQUIRE(none);
  CHECK(none->min_driver.empty());
  auto bad = doctor::host_policy_for(profile_with_toolkit("twelve"), "team.yaml", builtin_compat_db());
  REQUIRE_FALSE(bad);
  CHECK_THAT(bad.error().message, Catch::Contains("team.yaml") && Catch::Contains("twelve"));
}

TEST_CASE("an unknown profile name is an error with a suggestion") {
  auto policy = doctor::host_policy_for_profile("tf-2.15-cuda-12.3", builtin_compat_db());
  REQUIRE_FALSE(policy);
  CHECK_THAT(policy.error().describe(), Catch::Contains("tf-2.15-cuda-12.2"));
}
