#include "common/wslconfig/wslconfig_lint.hpp"

#include <algorithm>
#include <catch2/catch.hpp>

#include "common/wslconfig/wslconfig_facts.hpp"

using namespace tfwsl;
using namespace tfwsl::wslconfig;

namespace {

std::vector<Finding> lint_text(const std::string& text, LintOptions options = {}) {
  return lint(Document::parse(text), options);
}

const Finding* find(const std::vector<Finding>& findings, const std::string& id) {
  auto it = std::find_if(findings.begin(), findings.end(), [&](const Finding& f) { return f.id == id; });
  return it == findings.end() ? nullptr : &*it;
}

}  // namespace

TEST_CASE("a clean .wslconfig has no findings", "[wslconfig]") {
  const auto findings = lint_text(
      "[wsl2]\nmemory=16GB\nprocessors=8\nswap=0\nlocalhostForwarding=true\n"
      "[experimental]\nautoMemoryReclaim=gradual\nsparseVhd=true\n");
  CHECK(findings.empty());
}

TEST_CASE("lint: each problem gets its id, its line and a fix", "[wslconfig]") {
  struct Case {
    std::string text;
    std::string id;
    std::size_t line;
    std::string fix_mentions;
  };
  const std::vector<Case> cases{
      {"[ws12]\nmemory=16GB\n", "wslconfig.unknown-section", 1, "[wsl2]"},
      {"[boot]\nsystemd=true\n", "wslconfig.unknown-section", 1, "/etc/wsl.conf"},
      {"[wsl2] memory=48GB\n", "wslconfig.malformed-line", 1, "separate lines"},
      {"[wsl2]\nmemory 16GB\n", "wslconfig.malformed-line", 2, "key=value"},
      {"[wsl2]\nmemory=26GB # Limits VM memory\n", "wslconfig.inline-comment", 2, "own line"},
      {"[wsl2]\nmemory=16 GB\n", "wslconfig.bad-size", 2, "16GB"},
      {"[wsl2]\nmemory=16gb\n", "wslconfig.bad-size", 2, "upper-case"},
      {"[wsl2]\nswap=1.5GB\n", "wslconfig.bad-size", 2, "whole number"},
      {"[wsl2]\nmemory=6GB\n", "wslconfig.memory-low", 2, "16GB"},
      {"[wsl2]\nkernel=C:\\\\temp\\\\myCustomKernel\n", "wslconfig.custom-kernel", 2, "kernel="},
      {"memory=16GB\n[wsl2]\n", "wslconfig.key-outside-section", 1, "[wsl2]"},
      {"[wsl2]\nmemmory=16GB\n", "wslconfig.unknown-key", 2, "memory"},
      {"[wsl2]\nsparseVhd=true\n", "wslconfig.unknown-key", 2, "[experimental]"},
      {"[wsl2]\nguiApplications=yes\n", "wslconfig.bad-value", 2, "true"},
      {"[wsl2]\nprocessors=four\n", "wslconfig.bad-value", 2, "whole number"},
      {"[wsl2]\nmemory=8GB\nmemory=12GB\n", "wslconfig.duplicate-key", 3, "remove"},
      {"\xEF\xBB\xBF[wsl2]\nmemory=16GB\n", "wslconfig.encoding", 0, "UTF-8"},
      {std::string("\xFF\xFE[\0w\0s\0l\0]\0", 12), "wslconfig.encoding", 0, "UTF-8"},
  };
  for (const Case& c : cases) {
    INFO(c.text);
    const auto findings = lint_text(c.text);
    const Finding* f = find(findings, c.id);
    REQUIRE(f != nullptr);
    CHECK(f->line == c.line);
    CHECK_FALSE(f->summary.empty());
    CHECK(f->fix.find(c.fix_mentions) != std::string::npos);
  }
}

TEST_CASE("lint: the memory-low boundary is 8 GB, and kernelCommandLine is not a custom kernel", "[wslconfig]") {
  CHECK(find(lint_text("[wsl2]\nmemory=8GB\n"), "wslconfig.memory-low") == nullptr);
  CHECK(find(lint_text("[wsl2]\nmemory=8191MB\n"), "wslconfig.memory-low") != nullptr);
  CHECK(find(lint_text("[wsl2]\nkernelCommandLine = cgroup_no_v1=all\n"), "wslconfig.custom-kernel") == nullptr);
  CHECK(find(lint_text("[wsl2]\nkernel=\n"), "wslconfig.custom-kernel") == nullptr);
}

TEST_CASE("lint: memory is checked against the machine's RAM when it is known", "[wslconfig]") {
  LintOptions options;
  options.physical_memory_bytes = 32ULL << 30;
  const auto over = lint_text("[wsl2]\nmemory=48GB\n", options);
  const Finding* f = find(over, "wslconfig.memory-over-ram");
  REQUIRE(f != nullptr);
  CHECK(f->fix.find("32GB") != std::string::npos);
  CHECK(find(lint_text("[wsl2]\nmemory=24GB\n", options), "wslconfig.memory-over-ram") == nullptr);
  CHECK(find(lint_text("[wsl2]\nmemory=48GB\n"), "wslconfig.memory-over-ram") == nullptr);
}

TEST_CASE("facts: [wsl2] keys lower-cased with values as written, memory_bytes when valid", "[wslconfig]") {
  const auto facts =
      facts_of(Document::parse("[wsl2]\nMemory=20GB \nswapFile=C:\\\\temp\\\\swap.vhdx\nkernelCommandLine = "
                               "vsyscall=emulate\n[experimental]\nsparseVhd=true\n"));
  CHECK(facts["wsl2"] ==
        nlohmann::json(
            {{"memory", "20GB"}, {"swapfile", "C:\\\\temp\\\\swap.vhdx"}, {"kernelcommandline", "vsyscall=emulate"}}));
  CHECK(facts["memory_bytes"] == 20ULL << 30);
  CHECK(facts["experimental"]["sparsevhd"] == "true");
  CHECK_FALSE(facts_of(Document::parse("[wsl2]\nmemory=lots\n")).contains("memory_bytes"));
}

TEST_CASE("recogniser: a .wslconfig versus other texts", "[wslconfig]") {
  CHECK(looks_like_wslconfig("[wsl2]\nmemory=16GB\n") >= 0.9);
  CHECK(looks_like_wslconfig("[wsl2] memory=48GB\n") >= 0.9);
  CHECK(looks_like_wslconfig("[ws12]\nmemory=16GB\n") >= 0.5);
  CHECK(looks_like_wslconfig("  NAME      STATE           VERSION\n* Ubuntu    Running         2\n") < 0.5);
  CHECK(looks_like_wslconfig("tensorflow==2.15.0\n") < 0.5);
}
