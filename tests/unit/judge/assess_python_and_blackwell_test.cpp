// The judge on the machine of issue 26: Ubuntu 26.04's Python 3.14 as the default distro's, and a
// Blackwell GPU (compute capability 12.0) that no stock TensorFlow wheel runs on.
#include <algorithm>
#include <catch2/catch.hpp>

#include "common/judge/assess.hpp"
#include "common/judge/verdict_parts.hpp"
#include "tests/support/report_lookup.hpp"

using namespace tfwsl;
using namespace tfwsl::judge;
using agent_api::LinuxFacts;
using tfwsl::test::require_check;

namespace {

CheckPolicy issue26_policy() {
  auto policy = check_policy_for_profile("");  // tf-2.15-cuda-12.2 on Ubuntu-22.04, Python 3.9-3.11
  REQUIRE(policy);
  return *policy;
}

LinuxFacts issue26_wsl2_facts() {
  LinuxFacts f;
  f.wsl.kind = agent_api::WslKind::wsl2;
  f.wsl.dxg = true;
  f.wsl.distro = "Ubuntu";
  f.stack.python_version = "3.10.12";
  f.stack.python_path = "/usr/bin/python3";
  return f;
}

}  // namespace

TEST_CASE("python.version on Ubuntu 26.04's Python 3.14: no wheel there, the profile's distro beside it", "[judge]") {
  auto f = issue26_wsl2_facts();
  const auto p = issue26_policy();
  CHECK(p.distro == "Ubuntu-22.04");
  CHECK(p.profile_id == "tf-2.15-cuda-12.2");
  f.stack.python_version = "3.14.0";
  auto r = require_check(assess(f, p), "python.version");
  CHECK(r.status == CheckStatus::fail);
  CHECK(r.summary.find("3.14.0") != std::string::npos);
  CHECK(r.summary.find("no TensorFlow wheel") != std::string::npos);
  CHECK(r.fix.find("tfwsl provision --profile tf-2.15-cuda-12.2") != std::string::npos);
  CHECK(r.fix.find("Ubuntu-22.04") != std::string::npos);
  // Ubuntu's own numbering (26.04), never Version's text of it (26.4).
  const bool plain_install_named = std::any_of(r.details.begin(), r.details.end(), [](const std::string& d) {
    return d.find("installs Ubuntu 26.04 now") != std::string::npos;
  });
  CHECK(plain_install_named);
  // A venv of the wrong Python is the user's own: the old advice (another interpreter) stays.
  f.stack.python_path = "/home/me/.venvs/x/bin/python";
  CHECK(require_check(assess(f, p), "python.version").fix.find("tfwsl provision") == std::string::npos);
}

TEST_CASE("gpu.compute-capability fails on Blackwell with NVIDIA's container, before TF is installed", "[judge]") {
  auto f = issue26_wsl2_facts();
  const auto p = issue26_policy();
  CHECK(p.stock_fail_cc_major == 12);
  CHECK(p.container.find("nvcr.io/nvidia/tensorflow") == 0);
  f.gpu.libcuda_loaded = true;
  f.gpu.devices.push_back({0, "NVIDIA GeForce RTX 5090", 12, 0, 32ull << 30});
  auto r = require_check(assess(f, p), "gpu.compute-capability");
  CHECK(r.status == CheckStatus::fail);
  CHECK(r.summary.find("NVIDIA GeForce RTX 5090 (12.0)") != std::string::npos);
  CHECK(r.fix.find("nvcr.io/nvidia/tensorflow") != std::string::npos);
  f.gpu.devices.front() = {0, "NVIDIA GeForce RTX 4090", 8, 9, 24ull << 30};
  CHECK(require_check(assess(f, p), "gpu.compute-capability").status == CheckStatus::ok);
}

TEST_CASE("on Blackwell the fix says whether Docker and NVIDIA's runtime are already in the distro", "[judge]") {
  auto f = issue26_wsl2_facts();
  const auto p = issue26_policy();
  f.gpu.libcuda_loaded = true;
  f.gpu.devices.push_back({0, "NVIDIA GeForce RTX 5090", 12, 0, 32ull << 30});
  auto missing = require_check(assess(f, p), "gpu.compute-capability");
  CHECK(missing.fix.find(
            "install Docker inside the distro with the NVIDIA Container Toolkit, then docker run --rm --gpus all") !=
        std::string::npos);
  CHECK(std::find(missing.details.begin(), missing.details.end(), "Docker: not installed in the distro") !=
        missing.details.end());
  f.stack.docker = "/usr/bin/docker";
  f.stack.nvidia_container_runtime = "/usr/bin/nvidia-container-runtime";
  auto ready = require_check(assess(f, p), "gpu.compute-capability");
  CHECK(ready.fix.find("already here): docker run --rm --gpus all nvcr.io/nvidia/tensorflow") != std::string::npos);
  CHECK(ready.fix.find("install Docker") == std::string::npos);
}

TEST_CASE("linux.dxg: [gpu] enabled=false written since the distro started warns of the next start", "[judge]") {
  auto f = issue26_wsl2_facts();
  f.wsl.gpu_disabled = true;
  auto r = require_check(assess(f, issue26_policy()), "linux.dxg");
  CHECK(r.status == CheckStatus::warn);
  CHECK(r.summary.find("next start") != std::string::npos);
  CHECK(r.fix.find("wsl --terminate Ubuntu") != std::string::npos);
}

TEST_CASE("cuda.toolkit: NVIDIA's CUDA repository in apt's sources without an index under apt 3 is sqv's refusal",
          "[judge][apt]") {
  auto policy = issue26_policy();
  agent_api::LinuxFacts f;
  f.stack.apt_version = "3.1.16";
  f.stack.cuda_repository_sources = {"/etc/apt/sources.list.d/cuda-wsl-ubuntu-x86_64.list"};
  auto r = judge::detail::check_toolkit(f, policy);
  CHECK(r.status == CheckStatus::warn);
  CHECK(r.summary.find("apt 3.1.16 verifies with sqv") != std::string::npos);
  CHECK(r.summary.find("3BF863CC") != std::string::npos);
  CHECK(r.summary.find("2026-02-01") != std::string::npos);
  CHECK(r.fix.find("remove /etc/apt/sources.list.d/cuda-wsl-ubuntu-x86_64.list") != std::string::npos);
  f.stack.apt_version = "2.7.14";  // Ubuntu 24.04: gpgv; the update failed for another reason
  r = judge::detail::check_toolkit(f, policy);
  CHECK(r.status == CheckStatus::warn);
  CHECK(r.summary.find("its last apt-get update failed or never ran") != std::string::npos);
  f.stack.cuda_repository_lists = true;  // the update took: the toolkit is judged as before
  CHECK(judge::detail::check_toolkit(f, policy).summary.find("sqv") == std::string::npos);
  policy.container_route = true;
  f.stack.cuda_repository_lists = false;
  CHECK(judge::detail::check_toolkit(f, policy).status == CheckStatus::warn);  // every route's apt breaks
}
