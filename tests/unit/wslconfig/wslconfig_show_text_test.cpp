// `tfwsl wslconfig show` as a person reads it: machine-worked defaults in GiB with their rule.
#include <catch2/catch.hpp>
#include <string>

#include "common/wslconfig/wslconfig_document.hpp"
#include "common/wslconfig/wslconfig_effective.hpp"
#include "common/wslconfig/wslconfig_lint.hpp"
#include "win/render/wslconfig_report.hpp"

using namespace tfwsl;

namespace {

// The machine of issue 25: 24683564 KB of RAM, WSL's default memory half of it.
constexpr std::uint64_t k_issue_ram_bytes = 24683564ULL * 1024;

std::string show_of(const std::string& file) {
  cli::WslconfigReport report;
  report.command = "show";
  report.path = "C:\\Users\\me\\.wslconfig";
  report.exists = true;
  report.encoding = "UTF-8";
  report.host = {k_issue_ram_bytes, 8};
  report.values = wslconfig::effective_values(wslconfig::Document::parse(file), report.host);
  return cli::render_text(report);
}

}  // namespace

TEST_CASE("show: the default memory in GiB with its rule, not as a KB count", "[wslconfig]") {
  const std::string text = show_of("");
  CHECK(text.find("11.8 GiB  [default: half of the 23.5 GiB RAM]") != std::string::npos);
  CHECK(text.find("KB") == std::string::npos);
  CHECK(text.find("3.0 GiB  [default: a quarter of the 11.8 GiB memory, rounded up to the GB]") != std::string::npos);
}

TEST_CASE("show: a value WSL ignores names the rule of the default that applies", "[wslconfig]") {
  const std::string text = show_of("[wsl2]\nmemory=16gb\n");
  CHECK(text.find("11.8 GiB  [default: half of the 23.5 GiB RAM; line 2 has 16gb, which WSL ignores]") !=
        std::string::npos);
}

TEST_CASE("lint: memory over the RAM names the most it may be in whole GB", "[wslconfig]") {
  wslconfig::LintOptions options;
  options.physical_memory_bytes = k_issue_ram_bytes;
  bool found = false;
  for (const auto& f : wslconfig::lint(wslconfig::Document::parse("[wsl2]\nmemory=48GB\n"), options)) {
    if (f.id != "wslconfig.memory-over-ram") continue;
    found = true;
    CHECK(f.fix == "set memory to at most 23GB (the RAM)");
  }
  CHECK(found);
}
