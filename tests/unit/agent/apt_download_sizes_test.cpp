#include "linux/provision/apt_download_sizes.hpp"

#include <catch2/catch.hpp>
#include <filesystem>
#include <string>

#include "common/compat/compat_db.hpp"
#include "common/profile/profile_loader.hpp"
#include "common/profile/profile_source.hpp"
#include "common/provision/provision_catalogue.hpp"
#include "common/provision/provision_plan.hpp"
#include "tests/support/recording_process_runner.hpp"
#include "tests/support/test_environment.hpp"

using namespace tfwsl;
using namespace tfwsl::provision;

namespace {

ProvisionPlan default_plan() {
  auto profile = load_valid_profile(default_profile_name());
  REQUIRE(profile);
  auto plan = build_provision_plan(*profile, builtin_compat_db(), {});
  REQUIRE(plan);
  return *plan;
}

const PlannedStep& step_of(const ProvisionPlan& plan, std::string_view id) {
  const auto* step = plan.find(id);
  REQUIRE(step);
  return *step;
}

ProcessOutcome answer(int code, std::string out) {
  ProcessOutcome o;
  o.exit_code = code;
  o.out = std::move(out);
  return o;
}

}  // namespace

TEST_CASE("the agent asks apt for the packages dpkg lacks and keeps the known size where apt cannot tell",
          "[provision][downloads]") {
  test::TempDir root;
  std::filesystem::create_directories(root.path() / "var/lib/dpkg");
  test::write_file(root.path() / "var/lib/dpkg/status",
                   "Package: python3-venv\nStatus: install ok installed\nVersion: 3.10.6-1~22.04\n\n"
                   "Package: ca-certificates\nStatus: install ok installed\nVersion: 20230311\n\n");
  test::RecordingProcessRunner apt;
  apt.on({"apt-get", "-qq", "--print-uris", "-y", "--no-install-recommends", "install", "curl"},
         answer(0,
                "'http://archive.ubuntu.com/ubuntu/pool/main/c/curl/curl_7.81.0-1ubuntu1.16_amd64.deb' "
                "curl_7.81.0-1ubuntu1.16_amd64.deb 194000 SHA512:ab\n"));
  apt.on({"apt-get", "-qq", "--print-uris", "-y", "--no-install-recommends", "install", "cuda-toolkit-12-2"},
         answer(100, ""));
  apt.on({"apt-get", "-qq", "--print-uris", "-y", "--no-install-recommends", "install", "python3-pip"}, answer(0, ""));
  auto plan = default_plan();
  const auto toolkit_before = *step_of(plan, "cuda.toolkit").download;
  ask_apt_download_sizes(plan, root.path(), apt);

  const auto& prerequisites = *step_of(plan, "apt.prerequisites").download;
  CHECK(prerequisites.basis == "apt");
  CHECK_FALSE(prerequisites.approximate);
  CHECK(prerequisites.bytes == 194000u);
  const auto& toolkit = *step_of(plan, "cuda.toolkit").download;
  CHECK(toolkit.basis == "data");
  CHECK(toolkit.bytes == toolkit_before.bytes);
  CHECK(step_of(plan, "apt.packages").download->bytes == 0u);
  const auto requests = apt.requests();
  REQUIRE(requests.size() == 3);
  CHECK(requests[0].argv == apt_print_uris_argv({"curl"}));  // ca-certificates is installed: not asked
  CHECK(requests[0].env.at("LC_ALL") == "C");
}

TEST_CASE("a step whose packages are all installed downloads nothing and starts no apt", "[provision][downloads]") {
  test::TempDir root;
  std::string status;
  for (const char* p : {"ca-certificates", "curl", "cuda-toolkit-12-2", "python3-venv", "python3-pip"})
    status += std::string("Package: ") + p + "\nStatus: install ok installed\n\n";
  std::filesystem::create_directories(root.path() / "var/lib/dpkg");
  test::write_file(root.path() / "var/lib/dpkg/status", status);
  test::RecordingProcessRunner apt;
  auto plan = default_plan();
  ask_apt_download_sizes(plan, root.path(), apt);
  CHECK(apt.requests().empty());
  for (const char* id : {"apt.prerequisites", "cuda.toolkit", "apt.packages"}) {
    CHECK(step_of(plan, id).download->bytes == 0u);
    CHECK(step_of(plan, id).download->basis == "none");
  }
}
