#pragma once
// The judge's usual inputs for its tests (tests/unit/judge, tests/unit/check): the default profile's
// policy and the facts of a healthy-looking WSL 2 distro to change one thing in. One copy, shared,
// now that the tests build without unity batches (each file used to carry its own under a new name).

#include <catch2/catch.hpp>

#include "common/agent_api/linux_facts.hpp"
#include "common/judge/check_policy.hpp"

namespace tfwsl::test {

// tf-2.15-cuda-12.2: TF 2.15.*, CUDA 12.2, cuDNN 8.9.
inline judge::CheckPolicy default_check_policy() {
  auto policy = judge::check_policy_for_profile("");
  REQUIRE(policy);
  return *policy;
}

// WSL 2 with /dev/dxg, Ubuntu-22.04 and its python3 3.10.12; nothing else observed.
inline agent_api::LinuxFacts wsl2_distro_facts() {
  agent_api::LinuxFacts f;
  f.wsl.kind = agent_api::WslKind::wsl2;
  f.wsl.dxg = true;
  f.wsl.distro = "Ubuntu-22.04";
  f.stack.python_version = "3.10.12";
  f.stack.python_path = "/usr/bin/python3";
  return f;
}

}  // namespace tfwsl::test
