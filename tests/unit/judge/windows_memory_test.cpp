// mem.effective when the doctor on Windows tells the judge what .wslconfig asks: memory= against
// MemTotal inside the VM (common/check/memory_band.hpp), WSL's default when none is set, skipped
// without MemTotal; and the numbers both sides saw, as values.
#include <catch2/catch.hpp>
#include <cstdint>
#include <optional>

#include "common/judge/assess.hpp"
#include "tests/support/report_lookup.hpp"

using namespace tfwsl;
using namespace tfwsl::judge;
using tfwsl::test::require_check;

namespace {

const std::uint64_t k_gib16 = 16ull << 30;

CheckResult memory_check(std::optional<std::uint64_t> configured, std::optional<std::uint64_t> mem_total_kb,
                         std::optional<std::uint64_t> host_ram = std::nullopt, std::string path = "x") {
  agent_api::LinuxFacts f;
  f.wsl.kind = agent_api::WslKind::wsl2;
  f.system.mem_total_kb = mem_total_kb;
  auto policy = check_policy_for_profile("");
  REQUIRE(policy);
  return require_check(assess(f, *policy, WindowsMemory{configured, host_ram, std::move(path)}), "mem.effective");
}

}  // namespace

TEST_CASE("mem.effective compares .wslconfig's memory= with MemTotal", "[judge][memory]") {
  CHECK(memory_check(k_gib16, 16318464).status == CheckStatus::ok);  // 15.56 GiB: the kernel's reserve
  auto r = memory_check(k_gib16, 8000000, std::nullopt, "C:\\Users\\me\\.wslconfig");
  CHECK(r.status == CheckStatus::warn);
  CHECK(r.summary == ".wslconfig asks for 16.0 GiB but the VM has 7.6 GiB: the setting is not in effect");
  CHECK(r.fix.find("wsl --shutdown") != std::string::npos);
  CHECK(r.fix.find("C:\\Users\\me\\.wslconfig") != std::string::npos);
  CHECK(memory_check(k_gib16, 17500000).status == CheckStatus::warn);  // above the size asked: not that setting
  auto by_default = memory_check(std::nullopt, 8000000);
  CHECK(by_default.status == CheckStatus::ok);
  CHECK(by_default.summary.find("WSL's default") != std::string::npos);
  CHECK(memory_check(k_gib16, std::nullopt).status == CheckStatus::skip);
}

TEST_CASE("mem.effective on Windows carries both sides' numbers", "[judge][memory][values]") {
  auto mem = memory_check(k_gib16, 16318464, 32ull << 30);
  CHECK(mem.values ==
        nlohmann::json({{"mem_total_kb", 16318464}, {"host_ram_bytes", 32ull << 30}, {"configured_bytes", k_gib16}}));
  CHECK(mem.details.at(1) == "Windows RAM: 32.0 GiB");
  CHECK(memory_check(std::nullopt, std::nullopt).values.empty());
}
