#include "common/version/driver_version.hpp"

#include <catch2/catch.hpp>

using namespace tfwsl;

namespace {
std::string nvidia_form(std::string_view text) {
  auto v = parse_driver_version(text);
  REQUIRE(v);
  return v->to_string();
}
}  // namespace

TEST_CASE("driver versions in NVIDIA's numbering", "[driver]") {
  CHECK(nvidia_form("537.58") == "537.58");
  CHECK(nvidia_form("546.80") == "546.80");
  CHECK(nvidia_form(" 525.60.13 ") == "525.60.13");
  CHECK(nvidia_form("470.42.01") == "470.42.01");
  CHECK(nvidia_form("570.124.06") == "570.124.06");
  CHECK(*parse_driver_version("528.33") > *parse_driver_version("527.41"));
  CHECK(*parse_driver_version("546.80") > *parse_driver_version("546.12"));
  CHECK(*parse_driver_version("525.60.13") > *parse_driver_version("525.60"));
  CHECK(*parse_driver_version("525.85.12") > *parse_driver_version("525.60.13"));
  CHECK(*parse_driver_version("600.01") > *parse_driver_version("599.99"));
}

// The Windows driver string 31.0.15.5222 is NVIDIA 552.22: marketing = ((CC - 10) * 10000 + DDDD) / 100
// (NVIDIA driver release notes list both forms, e.g. "Windows Driver Store Version 31.0.15.5222").
TEST_CASE("driver versions in Windows' file-version numbering", "[driver]") {
  auto v = parse_driver_version("31.0.15.3758");
  REQUIRE(v);
  CHECK(v->to_string() == "537.58");
  CHECK(v->windows_form == "31.0.15.3758");
  CHECK(*v == *parse_driver_version("537.58"));
  CHECK(nvidia_form("31.0.15.2849") == "528.49");
  CHECK(nvidia_form("31.0.15.3833") == "538.33");  // GRID 538.33
  // sodium's comment pairs 526.47 with X.Y.15.2657, but its own formula (and 526.47 = 31.0.15.2647)
  // gives 526.57 for 2657: the formula is what we implement.
  CHECK(nvidia_form("31.0.15.2657") == "526.57");
  CHECK(nvidia_form("31.0.15.2647") == "526.47");
  CHECK(nvidia_form("9.18.13.4788") == "347.88");  // rex_engine's example
  CHECK(nvidia_form("32.0.15.6094") == "560.94");
  CHECK(nvidia_form("31.0.15.3705") == "537.05");
}

TEST_CASE("driver versions: bad input names the text", "[driver]") {
  for (const char* bad : {"", "537", "537.", ".58", "537.58a", "31.0.9.3758", "31.0.15.375", "1.2.3.4.5",
                          "NVIDIA-SMI 537.58", "537.5800"}) {
    INFO(bad);
    auto v = parse_driver_version(bad);
    REQUIRE_FALSE(v);
    CHECK(v.error().code == ErrorCode::invalid_input);
    CHECK(v.error().message.find(std::string("'") + bad + "'") != std::string::npos);
  }
}

TEST_CASE("a three-field driver number is a Linux driver's, in one place") {
  CHECK(parse_driver_version("525.60.13")->is_linux_numbering());
  CHECK(parse_driver_version("470.42.01")->is_linux_numbering());
  CHECK_FALSE(parse_driver_version("537.58")->is_linux_numbering());
  CHECK_FALSE(parse_driver_version("31.0.15.3758")->is_linux_numbering());  // the Windows file form
}
