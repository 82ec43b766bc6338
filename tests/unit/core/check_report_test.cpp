#include <catch2/catch.hpp>

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

TEST_CASE("the text report groups by category with a fix under every problem", "[check]") {
  auto text = render_text(sample(), {});
  CHECK(text.find("wsl\n  \xE2\x9C\x93 wsl.version") != std::string::npos);
  CHECK(text.find("linux\n  \xE2\x9C\x97 linux.dxg: no /dev/dxg\n      fix: Run WSL 2 with GPU support") != std::string::npos);
  CHECK(text.find("  ! linux.libcuda") != std::string::npos);
  CHECK(text.find("2 issues in 1 category") != std::string::npos);
  CHECK(text.find("Ubuntu-22.04: version 2") == std::string::npos);
  CHECK(render_text(sample(), {true, false}).find("Ubuntu-22.04: version 2") != std::string::npos);
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
