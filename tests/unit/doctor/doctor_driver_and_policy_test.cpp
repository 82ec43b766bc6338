// The doctor's verdicts of issue 26: driver numbers across the WSL boundary judged by branch, a
// policy or a setting WSL ignores (wslconfig.overrides), and the agent link under mirrored networking.
#include <catch2/catch.hpp>

#include "tests/support/driver_facts.hpp"
#include "win/doctor/doctor_checks.hpp"
#include "win/doctor/wslconfig_overrides.hpp"
#include "win/host/host_probe.hpp"
#include "win/host/registry.hpp"

using namespace tfwsl;
using namespace tfwsl::doctor;

namespace {

WslconfigFacts wslconfig_text(const std::string& text) {
  WslconfigFacts f;
  f.present = true;
  f.path = "C:\\Users\\me\\.wslconfig";
  f.bytes = text;
  return f;
}

}  // namespace

TEST_CASE("gpu.driver-parity: 573.76 on Windows and 570.194 inside WSL are one R570 driver") {
  auto r = check_driver_parity(test::windows_driver("573.76"), test::nvml("570.194"));
  CHECK(r.status == CheckStatus::ok);
  CHECK(r.summary.find("R570") != std::string::npos);
  // Other branches, a stale Windows driver of the same branch, a Linux driver: still a mismatch.
  CHECK(check_driver_parity(test::windows_driver("546.80"), test::nvml("537.58")).status == CheckStatus::warn);
  CHECK(check_driver_parity(test::windows_driver("572.61"), test::nvml("570.65")).status == CheckStatus::warn);
  CHECK(check_driver_parity(test::windows_driver("546.80"), test::nvml("546.80.01")).status == CheckStatus::warn);
  CHECK(check_driver_parity(test::windows_driver("576.02"), test::nvml("570.194")).status == CheckStatus::warn);
}

TEST_CASE("wslconfig.overrides: a policy that forces the networking mode wins over .wslconfig") {
  const auto file = wslconfig_text("[wsl2]\nnetworkingMode=mirrored\n");
  std::map<std::string, std::uint32_t> policies{{"AllowNetworkingModeUserSetting", 0}, {"DefaultNetworkingMode", 1}};
  auto r = check_wslconfig_overrides(file, policies);
  CHECK(r.status == CheckStatus::warn);
  CHECK(r.summary.find("networkingMode=mirrored") != std::string::npos);
  CHECK(r.summary.find("AllowNetworkingModeUserSetting=0") != std::string::npos);
  CHECK(r.summary.find("WSL uses nat") != std::string::npos);
  CHECK(effective_networking_mode(file, policies).mode == "nat");
  CHECK(effective_networking_mode(file, {}).mode == "mirrored");
  CHECK(effective_networking_mode(wslconfig_text("[wsl2]\n"), {{"DefaultNetworkingMode", 3}}).mode == "mirrored");
  // A policy that allows the setting, or none: ok.
  CHECK(check_wslconfig_overrides(file, {{"AllowNetworkingModeUserSetting", 1}}).status == CheckStatus::ok);
  CHECK(check_wslconfig_overrides(file, {}).status == CheckStatus::ok);
  CHECK(check_wslconfig_overrides(WslconfigFacts{}, {}).status == CheckStatus::ok);
}

TEST_CASE("wslconfig.overrides: sparseVhd is ignored, gpuSupport=false hides the GPU, AllowWSL=0 blocks WSL") {
  CHECK(check_wslconfig_overrides(wslconfig_text("[experimental]\nsparseVhd=true\n"), {}).status == CheckStatus::warn);
  auto gpu = check_wslconfig_overrides(wslconfig_text("[wsl2]\ngpuSupport=false\n"), {});
  CHECK(gpu.status == CheckStatus::fail);
  CHECK(gpu.fix.find("gpuSupport=false") != std::string::npos);
  CHECK(check_wslconfig_overrides(wslconfig_text(""), {{"AllowWSL", 0}}).status == CheckStatus::fail);
}

TEST_CASE("the host probe reads WSL's policies through the registry port") {
  host::MapRegistry registry;
  registry.set_dword(host::reg::k_wsl_policies, "AllowNetworkingModeUserSetting", 0);
  registry.set_dword(host::reg::k_wsl_policies, "DefaultNetworkingMode", 1);
  const auto facts = host::read_wsl_policies(registry);
  CHECK(facts.size() == 2);
  CHECK(facts.at("AllowNetworkingModeUserSetting") == 0);
  CHECK(facts.at("DefaultNetworkingMode") == 1);
}

TEST_CASE("wsl.localhost-forwarding names mirrored networking and the link it used") {
  auto fallback = check_localhost_forwarding(AgentLink::stdio_fallback, "127.0.0.1:40000 did not answer", true,
                                             {"mirrored", ".wslconfig"});
  CHECK(fallback.status == CheckStatus::warn);
  CHECK(fallback.summary.find("mirrored networking (.wslconfig)") != std::string::npos);
  CHECK(fallback.summary.find("stdio fallback") != std::string::npos);
  auto http = check_localhost_forwarding(AgentLink::http, "", true, {"mirrored", ".wslconfig"});
  CHECK(http.status == CheckStatus::ok);
  CHECK(http.summary.find("share localhost") != std::string::npos);
  CHECK(check_localhost_forwarding(AgentLink::http, "", true, {"nat", "WSL's default"}).summary ==
        "Windows reaches the agent on 127.0.0.1");
}

TEST_CASE("the doctor's .wslconfig checks read one parsed document", "[doctor][wslconfig]") {
  auto file = wslconfig_text("[wsl2]\nmemory=16GB\nnetworkingMode=mirrored\n");
  file.parsed_at_the_edge();
  const auto* parsed = file.parsed.get();
  std::optional<std::uint64_t> memory;
  (void)check_wslconfig(file, std::uint64_t{32} << 30, memory);
  (void)check_wslconfig_overrides(file, {{"AllowNetworkingModeUserSetting", 0}});
  (void)effective_networking_mode(file, {});
  CHECK(file.parsed.get() == parsed);  // no check parsed the bytes again
  CHECK(memory == std::uint64_t{16} << 30);
}
