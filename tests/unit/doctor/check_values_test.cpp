// The Windows-side and cross-side verdicts carry the numbers their summaries quote as `values`
// (common/check/check.hpp): host.windows-build, host.nvidia-driver, wsl.version, gpu.driver-parity,
// mem.effective.
#include <catch2/catch.hpp>

#include "tests/support/driver_facts.hpp"
#include "win/doctor/doctor_checks.hpp"
#include "win/host/host_checks.hpp"

using namespace tfwsl;

namespace {

// A Windows host with one NVIDIA GPU on `driver`, on build 22631.2861.
host::HostFacts host_with_driver(const std::string& driver) {
  host::HostFacts f = test::windows_driver(driver);
  f.windows_build = 22631;
  f.windows_ubr = 2861;
  return f;
}

}  // namespace

TEST_CASE("host verdicts carry the build and the driver as fields", "[values]") {
  const host::HostPolicy policy{"tf-2.15-cuda-12.2", 19044, "528.33"};
  const auto facts = host_with_driver("546.80");
  CHECK(host::check_windows_build(facts, policy).values ==
        nlohmann::json({{"build", 22631}, {"ubr", 2861}, {"min_build", 19044}}));
  auto driver = host::check_nvidia_driver(facts, policy);
  CHECK(driver.values == nlohmann::json({{"driver", "546.80"}, {"min_driver", "528.33"}}));
  auto old = host::check_nvidia_driver(host_with_driver("516.94"), policy);
  CHECK(old.status == CheckStatus::fail);
  CHECK(old.values["driver"] == "516.94");
  host::HostFacts not_windows;
  CHECK(host::check_nvidia_driver(not_windows, policy).values.empty());
}

TEST_CASE("driver parity carries both sides' numbers", "[values]") {
  agent_api::GpuResponse gpu;
  gpu.nvml_driver_version = "546.80";
  gpu.nvml_source = "nvml";
  auto parity = doctor::check_driver_parity(host_with_driver("537.58"), gpu);
  CHECK(parity.values == nlohmann::json({{"windows_driver", "537.58"}, {"wsl_driver", "546.80"}}));
}
