#include "common/provision/container_plan.hpp"

#include <algorithm>
#include <catch2/catch.hpp>

#include "common/compat/apt_signature_policy.hpp"
#include "common/compat/compat_db.hpp"
#include "common/profile/profile_loader.hpp"
#include "common/provision/plan_downloads.hpp"

using namespace tfwsl;
using namespace tfwsl::provision;

namespace {

ProvisionPlan plan_of(const std::string& profile, const std::vector<std::string>& overrides = {}) {
  ProfileLoadOptions options;
  options.overrides = overrides;
  auto p = load_valid_profile(profile, options);
  REQUIRE(p);
  PlanSettings settings;
  settings.user = "ada";
  settings.home = "/home/ada";
  auto plan = build_provision_plan(*p, builtin_compat_db(), settings);
  REQUIRE(plan);
  return *plan;
}

std::vector<std::string> distro_ids(const ProvisionPlan& plan) {
  std::vector<std::string> ids;
  for (const auto& s : plan.distro_steps) ids.emplace_back(s.definition->id);
  return ids;
}

}  // namespace

TEST_CASE("ngc-tf-25.02: the container route's steps, the image pulled by repository@digest, as the user") {
  const auto plan = plan_of("ngc-tf-25.02");
  CHECK(plan.route == ProfileRoute::container);
  CHECK(distro_ids(plan) == std::vector<std::string>{"dpkg.health", "driver.none-in-wsl", "container.engine",
                                                     "apt.prerequisites", "container.toolkit-repository",
                                                     "container.toolkit", "container.cdi-spec", "container.image",
                                                     "container.verify"});
  CHECK(plan.image ==
        "nvcr.io/nvidia/tensorflow@sha256:c83b37d26f19ab00d8a13cf974edd079c3d099918ec3110c304a989d6e2f75d5");
  const auto* engine = plan.find("container.engine");
  CHECK(engine->packages == std::vector<std::string>{"podman", "uidmap", "slirp4netns"});
  const auto* spec = plan.find("container.cdi-spec");
  CHECK(spec->commands.at(0).argv ==
        std::vector<std::string>{"nvidia-ctk", "cdi", "generate", "--mode=wsl", "--output=/etc/cdi/nvidia.yaml"});
  const auto* image = plan.find("container.image");
  REQUIRE(image->commands.size() == 1);
  CHECK(image->commands[0].as == RunsAs::user);
  CHECK(image->commands[0].argv == std::vector<std::string>{"podman", "pull", plan.image});
  CHECK(plan.mounts == std::vector<std::string>{"/home/ada/.keras:/root/.keras"});
  // Nothing of the venv route: no CUDA repository, no pip.
  CHECK_FALSE(plan.find("cuda.repository"));
  CHECK_FALSE(plan.find("tensorflow.install"));
}

TEST_CASE("the container route's dry run: every step that downloads has a figure, the image's from the data") {
  const auto plan = plan_of("ngc-tf-25.02");
  for (const auto& step : plan.distro_steps) {
    INFO(step.definition->id);
    const std::string_view id = step.definition->id;
    if (id == "dpkg.health" || id == "driver.none-in-wsl") continue;
    REQUIRE(step.download);
    if (id != "apt.prerequisites") CHECK(step.download->bytes);
  }
  const auto* image = plan.find("container.image");
  CHECK(*image->download->bytes == 9000000000u);
  CHECK(image->download->detail.find("catalog.ngc.nvidia.com") != std::string::npos);
  CHECK(render_plan(plan).find("container.toolkit-repository") != std::string::npos);
}

TEST_CASE("the seeds' Docker route builds its Dockerfile as the user, its FROM pinned by digest") {
  const auto plan = plan_of("container-tf-2.15-cuda-12.2");
  CHECK(plan.image == "localhost/tfwsl/tf-2.15:cuda-12.2");
  REQUIRE_FALSE(plan.containerfile.empty());
  CHECK(plan.containerfile.front().rfind("FROM docker.io/nvidia/cuda:12.2.2-base-ubuntu22.04@sha256:", 0) == 0);
  const auto* image = plan.find("container.image");
  CHECK(image->commands.at(0).argv ==
        std::vector<std::string>{"podman", "build", "--pull=missing", "--tag", plan.image, "--file",
                                 "/home/ada/.cache/tfwsl/build/container-tf-2.15-cuda-12.2/Dockerfile",
                                 "/home/ada/.cache/tfwsl/build/container-tf-2.15-cuda-12.2"});
  CHECK_FALSE(image->download->bytes);  // a build: not known before it runs, and said so
}

TEST_CASE("a container profile without a digest, or with an unpinned FROM, is refused with the fix") {
  ProfileLoadOptions options;
  options.overrides = {"container.digest=sha256:abc"};
  auto r = load_profile("ngc-tf-25.02", options);
  CHECK_FALSE(r.ok());
  const std::string problems = [&] {
    std::string all;
    for (const auto& i : r.issues) all += i.message + "\n";
    return all;
  }();
  CHECK(problems.find("not a sha256 digest") != std::string::npos);
  options.overrides = {"container.build=[\"FROM ubuntu:22.04\"]"};
  r = load_profile("container-tf-2.15-cuda-12.2", options);
  CHECK_FALSE(r.ok());
  options.overrides = {"container.engine=docker"};
  r = load_profile("ngc-tf-25.02", options);
  CHECK_FALSE(r.ok());
}

TEST_CASE("apt's sqv: a venv profile on a distro that refuses NVIDIA's key leaves the CUDA repository out") {
  // TF 2.21 runs Python 3.13, Ubuntu 25.10's python3; its apt 3.1 refuses NVIDIA's SHA1-bound key.
  const auto plan = plan_of("tf-2.21-cuda-12.5", {"distro=Ubuntu-25.10"});
  CHECK_FALSE(plan.find("cuda.repository"));
  CHECK_FALSE(plan.find("cuda.toolkit"));
  REQUIRE(plan.notes.size() == 1);
  CHECK(plan.notes[0].find("SHA1") != std::string::npos);
  CHECK(plan.notes[0].find("2026-02-01") != std::string::npos);
  CHECK(render_plan(plan).find("Note: Ubuntu-25.10's apt") != std::string::npos);
  // The same profile on Ubuntu 24.04 (apt 2.7, gpgv) keeps both steps: the venv route's plan is unchanged.
  const auto kept = plan_of("tf-2.21-cuda-12.5");
  CHECK(kept.find("cuda.repository"));
  CHECK(kept.notes.empty());
}

TEST_CASE("apt's sqv: a profile that needs the toolkit on such a distro is refused before anything runs") {
  ProfileLoadOptions options;
  options.overrides = {"distro=Ubuntu-25.10", "tensorflow.extras=[]"};
  auto p = load_valid_profile("tf-2.21-cuda-12.5", options);
  REQUIRE(p);
  auto plan = build_provision_plan(*p, builtin_compat_db(), PlanSettings{});
  REQUIRE_FALSE(plan);
  CHECK(plan.error().message.find("refuses NVIDIA's CUDA repository") != std::string::npos);
}

TEST_CASE("apt's sqv: the data names the distros and keys, with sources") {
  const auto& policy = builtin_apt_signature_policy();
  CHECK(policy.sha1_rejected_from == "2026-02-01");
  CHECK(policy.sqv_distro("Ubuntu-26.04", "Ubuntu-26.04"));
  CHECK(policy.sqv_distro("Ubuntu", "Ubuntu-26.04"));
  CHECK_FALSE(policy.sqv_distro("Ubuntu-24.04", "Ubuntu-26.04"));
  CHECK_FALSE(policy.sqv_distro("Ubuntu-22.04", "Ubuntu-26.04"));
  REQUIRE(policy.repository("cuda"));
  CHECK(policy.repository("cuda")->refused_by_sqv);
  CHECK_FALSE(policy.repository("container-toolkit")->refused_by_sqv);
  CHECK(policy.repository_of_url("https://developer.download.nvidia.com/compute/cuda/repos/wsl-ubuntu/x86_64/") ==
        policy.repository("cuda"));
  for (const auto& d : policy.distros) CHECK(d.source.rfind("https://", 0) == 0);
}
