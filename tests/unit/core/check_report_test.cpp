#include <catch2/catch.hpp>
#include <sstream>

#include "common/check/check.hpp"

using namespace tfwsl;

namespace {
Report sample() {
  Report r;
  r.checks.push_back({"wsl.version", CheckStatus::ok, "default distro runs WSL 2", {"Ubuntu-22.04: version 2"}, ""});
  r.checks.push_back({"linux.dxg", CheckStatus::fail, "no /dev/dxg", {}, "Run WSL 2 with GPU support"});
  r.checks.push_back({"linux.libcuda", CheckStatus::warn, "libcuda.so.1 is not a symbolic link", {}, "harmless"});
  r.checks.push_back({"host.windows-build", CheckStatus::skip, "not Windows", {}, ""});
  return r;
}
}  // namespace

TEST_CASE("a report's exit code is 0 ok, 1 warnings only, 2 any failure", "[check]") {
  Report r = sample();
  CHECK(r.exit_code() == 2);
  r.checks[1].status = CheckStatus::ok;
  CHECK(r.exit_code() == 1);
  r.checks[2].status = CheckStatus::skip;
  CHECK(r.exit_code() == 0);
}

TEST_CASE("the text report: one line per category, its worst problem first with the fix under it", "[check]") {
  auto text = render_text(sample(), {});
  INFO(text);
  CHECK(text.find("[\xE2\x9C\x93] WSL: default distro runs WSL 2\n") != std::string::npos);
  CHECK(text.find("[\xE2\x9C\x97] Linux side: no /dev/dxg\n    fix: Run WSL 2 with GPU support\n") !=
        std::string::npos);
  CHECK(text.find("    ! linux.libcuda: libcuda.so.1 is not a symbolic link\n      fix: harmless\n") !=
        std::string::npos);
  CHECK(text.find("[-] Windows: not Windows\n") != std::string::npos);
  CHECK(text.find("2 issues in 1 category") != std::string::npos);
  CHECK(text.find("Ubuntu-22.04: version 2") == std::string::npos);
  const auto verbose = render_text(sample(), {true, false});
  CHECK(verbose.find("    \xE2\x9C\x93 wsl.version: default distro runs WSL 2\n        Ubuntu-22.04: version 2\n") !=
        std::string::npos);
}

TEST_CASE("the text report wraps to the width with hanging indents", "[check]") {
  Report r = sample();
  r.checks[1].fix =
      "Run WSL 2 with GPU support: in PowerShell, wsl --set-default-version 2 and then "
      "convert the distribution with wsl --set-version Ubuntu-22.04 2, then restart it";
  RenderOptions options;
  options.width = 50;
  const auto text = render_text(r, options);
  INFO(text);
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) CHECK(line.size() <= 55);  // marks are 3 bytes, 1 column
  CHECK(text.find("wsl --set-default-version 2") != std::string::npos);
  CHECK(text.find("wsl --set-version Ubuntu-22.04 2") != std::string::npos);
}

TEST_CASE("checks round-trip through JSON", "[check]") {
  auto j = to_json(sample());
  CHECK(j["checks"].size() == 4);
  CHECK(j["summary"]["exit_code"] == 2);
  CheckResult back;
  std::string error;
  REQUIRE(from_json(j["checks"][1], back, error));
  CHECK(back.id == "linux.dxg");
  CHECK(back.status == CheckStatus::fail);
  CHECK(back.fix == "Run WSL 2 with GPU support");
  nlohmann::json bad = {{"id", "x"}, {"status", "great"}};
  CHECK_FALSE(from_json(bad, back, error));
  CHECK(error.find("great") != std::string::npos);
}
