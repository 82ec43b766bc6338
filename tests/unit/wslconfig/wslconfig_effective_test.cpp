// What WSL uses: the file's values, else its documented defaults worked out for the machine.
#include "common/wslconfig/wslconfig_effective.hpp"

#include <catch2/catch.hpp>

using namespace tfwsl::wslconfig;

namespace {

constexpr std::uint64_t k_effective_gib = 1ULL << 30;
const HostShape k_effective_host{32 * k_effective_gib, 8};

const EffectiveValue& effective_value_of(const std::vector<EffectiveValue>& values, const std::string& key) {
  const EffectiveValue* v = find_effective(values, key);
  REQUIRE(v != nullptr);
  return *v;
}

}  // namespace

TEST_CASE("an empty file gets WSL's defaults for this machine", "[wslconfig][effective]") {
  const auto values = effective_values(Document::parse(""), k_effective_host);
  CHECK(effective_value_of(values, "memory").bytes == 16 * k_effective_gib);  // 50 % of RAM
  CHECK(effective_value_of(values, "memory").source == ValueSource::default_value);
  CHECK(effective_value_of(values, "processors").count == 8u);
  CHECK(effective_value_of(values, "swap").bytes == 4 * k_effective_gib);  // 25 % of the VM's memory
  CHECK(effective_value_of(values, "localhostForwarding").value == "true");
  CHECK(effective_value_of(values, "vmIdleTimeout").count == 60000u);
  CHECK(effective_value_of(values, "defaultVhdSize").bytes == 1024 * k_effective_gib);
  CHECK(effective_value_of(values, "sparseVhd").section == "experimental");
}

TEST_CASE("the file's values win, and swap's default follows memory", "[wslconfig][effective]") {
  const auto values = effective_values(Document::parse("[wsl2]\nmemory=10GB\nprocessors=2\n"), k_effective_host);
  CHECK(effective_value_of(values, "memory").source == ValueSource::file);
  CHECK(effective_value_of(values, "memory").line == 2);
  CHECK(effective_value_of(values, "memory").bytes == 10 * k_effective_gib);
  CHECK(effective_value_of(values, "processors").count == 2u);
  CHECK(effective_value_of(values, "swap").bytes == 3 * k_effective_gib);  // 2.5 GB rounded up to the GB
}

TEST_CASE("a value WSL would ignore is shown with the default that applies", "[wslconfig][effective]") {
  const auto values = effective_values(Document::parse("[wsl2]\nmemory=16gb\n"), k_effective_host);
  const auto& memory = effective_value_of(values, "memory");
  CHECK(memory.source == ValueSource::default_value);
  CHECK(memory.ignored == "16gb");
  CHECK(memory.line == 2);
  CHECK(memory.bytes == 16 * k_effective_gib);
}

TEST_CASE("an unknown machine leaves the machine defaults as words", "[wslconfig][effective]") {
  const auto values = effective_values(Document::parse(""), HostShape{});
  CHECK_FALSE(effective_value_of(values, "memory").bytes);
  CHECK(effective_value_of(values, "memory").value == "50% of total memory on Windows");
  CHECK_FALSE(effective_value_of(values, "swap").bytes);
}

TEST_CASE("keys that left [experimental] are still read there", "[wslconfig][effective]") {
  const auto values = effective_values(Document::parse("[experimental]\nnetworkingMode=mirrored\n"), k_effective_host);
  CHECK(effective_value_of(values, "networkingMode").value == "mirrored");
  CHECK(effective_value_of(values, "networkingMode").source == ValueSource::file);
}
