#include "common/version/version.hpp"

#include <catch2/catch.hpp>

#include "common/version/version_spec.hpp"

using namespace tfwsl;

namespace {
bool allows(std::string_view spec, std::string_view version) {
  auto s = VersionSpec::parse(spec);
  REQUIRE(s);
  return s->allows(version_literal(version));
}
}  // namespace

TEST_CASE("versions parse, print and order as PEP 440 says", "[version]") {
  CHECK(version_literal("2.15.1").release == std::vector<int>{2, 15, 1});
  CHECK(version_literal("v2.15").to_string() == "2.15");
  CHECK(version_literal("2.15.0rc1").to_string() == "2.15.0rc1");
  CHECK(version_literal("2.15.0-RC.1").to_string() == "2.15.0rc1");
  CHECK(version_literal("2.16.0.dev20240101").is_prerelease());
  CHECK(version_literal("2.15.0+cu121") == version_literal("2.15.0"));
  CHECK(version_literal("2.15") == version_literal("2.15.0"));
  CHECK(version_literal("2.9") < version_literal("2.10"));
  CHECK(version_literal("2.15.0rc1") < version_literal("2.15.0"));
  CHECK(version_literal("2.15.0.dev1") < version_literal("2.15.0a1"));
  CHECK(version_literal("2.15.0a1") < version_literal("2.15.0b1"));
  CHECK(version_literal("2.15.0b1") < version_literal("2.15.0rc1"));
  CHECK(version_literal("2.15.0") < version_literal("2.15.0.post1"));
  CHECK(version_literal("2.15.0.post1") < version_literal("2.15.1"));
  CHECK(version_literal("2.15.1").truncated(2).to_string() == "2.15");
  for (const char* bad : {"", "x", "2.", "2..1", "2.15.x", "2.15 1", "2.15+", "99999999999"}) {
    INFO(bad);
    auto v = Version::parse(bad);
    REQUIRE_FALSE(v);
    CHECK(v.error().code == ErrorCode::invalid_input);
    CHECK(v.error().message.find("2.15.1") != std::string::npos);
  }
}

TEST_CASE("specifiers: wildcard, compatible release, ranges and exclusions", "[version]") {
  CHECK(allows("==2.10.*", "2.10.0"));
  CHECK(allows("==2.10.*", "2.10.1"));
  CHECK_FALSE(allows("==2.10.*", "2.11.0"));
  CHECK_FALSE(allows("==2.10.*", "2.1.0"));
  CHECK(allows(">=2.12,<2.16", "2.12.0"));
  CHECK(allows(">=2.12, <2.16", "2.15.1"));
  CHECK_FALSE(allows(">=2.12,<2.16", "2.16.1"));
  CHECK_FALSE(allows(">=2.12,<2.16", "2.11.1"));
  CHECK(allows("~=2.15.0", "2.15.1"));
  CHECK_FALSE(allows("~=2.15.0", "2.16.1"));
  CHECK(allows("~=2.15", "2.16.1"));
  CHECK_FALSE(allows("~=2.15", "3.0"));
  CHECK_FALSE(allows("~=2.15", "2.14.9"));
  CHECK(allows("<2.11", "2.10.1"));
  CHECK_FALSE(allows("<2.11", "2.11.0"));
  CHECK_FALSE(allows("<2.11", "2.11.0rc1"));
  CHECK(allows("!=2.13.0", "2.13.1"));
  CHECK_FALSE(allows("!=2.13.0", "2.13"));
  CHECK_FALSE(allows("!=2.13.*", "2.13.1"));
  CHECK(allows("==2.15", "2.15.0"));
  CHECK(allows("2.15.1", "2.15.1"));
  CHECK_FALSE(allows("2.15.1", "2.15.0"));
  CHECK(allows(">2.15", "2.15.1"));
  CHECK_FALSE(allows(">2.15", "2.15.post1"));
  CHECK(allows("<=2.15", "2.15.0"));
  CHECK(allows("", "2.21.0"));
  // Pre-releases only when the specifier names one.
  CHECK_FALSE(allows(">=2.15", "2.16.0rc0"));
  CHECK(allows(">=2.16.0rc0", "2.16.0rc1"));
  CHECK(VersionSpec::parse(">=2.12 , <2.16")->to_string() == ">=2.12,<2.16");
}

TEST_CASE("specifiers: bad input names the clause and the fix", "[version]") {
  for (const char* bad : {"=2.15", ">=", ">=2.12,,<2.16", ">=2.*", "==2.*.1", "~=2", ">=two", "==2.15.*,"}) {
    INFO(bad);
    auto s = VersionSpec::parse(bad);
    REQUIRE_FALSE(s);
    CHECK(s.error().code == ErrorCode::invalid_input);
    CHECK(s.error().message.find("~=2.15.0") != std::string::npos);
  }
  CHECK(VersionSpec::parse("=2.15").error().message.find("'=='") != std::string::npos);
}

TEST_CASE("package names fold as PEP 503 says, and name characters are PEP 508's", "[version]") {
  CHECK(normalize_package_name("TensorFlow_GPU") == "tensorflow-gpu");
  CHECK(normalize_package_name("tf__.-nightly") == "tf-nightly");
  CHECK(is_package_name_char('a'));
  CHECK(is_package_name_char('.'));
  CHECK_FALSE(is_package_name_char('['));
  CHECK_FALSE(is_package_name_char('\xC3'));
}
