#include "common/version/requirement_syntax.hpp"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "common/parse/requirements_parser.hpp"
#include "common/version/version.hpp"
#include "common/version/version_spec.hpp"

// The one requirement reader (common/version/requirement_syntax) and its two faces: the strict
// parse_requirement (pip, provision, venv, profiles) and the lenient parse::parse_requirement
// (project files, pastes, conda).

using namespace tfwsl;

TEST_CASE("strict requirement lines as they appear in the wild", "[requirements]") {
  auto r = parse_requirement("tensorflow[and-cuda]==2.15.1");
  REQUIRE(r);
  CHECK(r->name == "tensorflow");
  CHECK(r->extras == std::vector<std::string>{"and-cuda"});
  CHECK(r->spec_text == "==2.15.1");
  CHECK(r->spec.allows(version_literal("2.15.1")));

  r = parse_requirement("  TensorFlow_GPU >= 2.12 , < 2.16  # pinned for the lab");
  REQUIRE(r);
  CHECK(r->name == "tensorflow-gpu");
  CHECK(r->name_as_written == "TensorFlow_GPU");
  CHECK(r->spec_text == ">=2.12,<2.16");
  CHECK(r->marker.empty());

  r = parse_requirement("tensorflow>=2.9; sys_platform == 'linux' and python_version >= \"3.9\"");
  REQUIRE(r);
  CHECK(r->spec_text == ">=2.9");
  CHECK(r->marker == "sys_platform == 'linux' and python_version >= \"3.9\"");

  r = parse_requirement("tensorflow-io-gcs-filesystem==0.31.0 --hash=sha256:abc");
  REQUIRE(r);
  CHECK(r->name == "tensorflow-io-gcs-filesystem");
  CHECK(r->spec_text == "==0.31.0");

  r = parse_requirement("tensorflow (>=2.0,<2.11)");
  REQUIRE(r);
  CHECK(r->spec_text == ">=2.0,<2.11");

  r = parse_requirement("keras");
  REQUIRE(r);
  CHECK(r->spec.is_any());

  r = parse_requirement("tensorflow[ and-cuda , Foo_Bar ]~=2.15.0");
  REQUIRE(r);
  CHECK(r->extras == std::vector<std::string>{"and-cuda", "foo-bar"});

  r = parse_requirement("mypkg @ https://example.com/mypkg-1.0.whl#sha1=abc");
  REQUIRE(r);
  CHECK(r->url == "https://example.com/mypkg-1.0.whl#sha1=abc");

  CHECK(parse_requirement("# only a comment").error().code == ErrorCode::not_found);
  CHECK(parse_requirement("").error().code == ErrorCode::not_found);
  CHECK(parse_requirement("-r base.txt").error().code == ErrorCode::not_found);
  for (const char* bad :
       {"tensorflow[and-cuda==2.15", "tensorflow=2.15", "tensorflow 2.15", ">=2.15", "tensorflow>=2.15;"}) {
    INFO(bad);
    auto e = parse_requirement(bad);
    REQUIRE_FALSE(e);
    CHECK(e.error().code == ErrorCode::invalid_input);
    CHECK(e.error().message.find(bad) != std::string::npos);
  }
}

TEST_CASE("the parts of a requirement: name, extras, version part, marker, URL", "[requirements]") {
  auto p = read_requirement_parts(
      "\xC2\xA0TensorFlow[and-cuda]  (>= 2.12, <2.16) ; python_version < '3.12'  # lab pin\xC2\xA0");
  REQUIRE(p);
  CHECK(p->name == "TensorFlow");
  CHECK(p->extras == std::vector<std::string>{"and-cuda"});
  CHECK(p->version_part == ">= 2.12, <2.16");
  CHECK(p->marker == "python_version < '3.12'");
  p = read_requirement_parts("pkg @ https://example.com/pkg.whl#egg=pkg ; sys_platform == 'linux'");
  REQUIRE(p);
  CHECK(p->url == "https://example.com/pkg.whl#egg=pkg");
  CHECK(p->marker == "sys_platform == 'linux'");
  p = read_requirement_parts("numpy==1.26.4 --hash=sha256:abc --hash=sha256:def");
  REQUIRE(p);
  CHECK(p->version_part == "==1.26.4");
  CHECK(read_requirement_parts("  # comment").error().code == ErrorCode::not_found);
  CHECK(read_requirement_parts("--extra-index-url https://x").error().code == ErrorCode::not_found);
  for (const char* bad :
       {"_private==1", "[x]", "tensorflow[and cuda]", "tensorflow[gpu", "tensorflow (>=2", "x;", "x @ "}) {
    INFO(bad);
    CHECK(read_requirement_parts(bad).error().code == ErrorCode::invalid_input);
  }
}

TEST_CASE("pip's comment rule: a '#' starts a comment only at the start or after a blank", "[requirements]") {
  CHECK(strip_requirement_comment("# all") == "");
  CHECK(strip_requirement_comment("numpy  # why") == "numpy  ");
  CHECK(strip_requirement_comment("numpy\t# why") == "numpy\t");
  CHECK(strip_requirement_comment("git+https://x/y.git#egg=y") == "git+https://x/y.git#egg=y");
}

// Both faces read the shape with the same reader: what one accepts as a PEP 508 requirement, the
// other reads with the same name, extras, marker and specifier.
TEST_CASE("the strict and the lenient reader agree on every PEP 508 line", "[requirements]") {
  for (const char* line :
       {"tensorflow[and-cuda]==2.15.1", "  TensorFlow_GPU >= 2.12 , < 2.16  # pinned",
        "tensorflow>=2.9; sys_platform == 'linux'", "numpy==1.26.4 --hash=sha256:abc", "tensorflow (>=2.0,<2.11)",
        "keras", "tf-keras~=2.16.0", "mypkg @ https://example.com/mypkg-1.0.whl"}) {
    INFO(line);
    const auto strict = parse_requirement(line);
    const auto lenient = parse::parse_requirement(line, false, 7);
    REQUIRE(strict);
    REQUIRE(lenient);
    CHECK(normalize_package_name(lenient->package) == strict->name);
    CHECK(lenient->extras == strict->extras);
    CHECK(lenient->marker == strict->marker);
    CHECK(lenient->spec == strict->spec_text);
    CHECK(lenient->line == 7);
  }
  for (const char* not_one : {"", "# x", "-r base.txt", "tensorflow[gpu", "_x==1", "x;"}) {
    INFO(not_one);
    CHECK_FALSE(parse_requirement(not_one));
    CHECK_FALSE(parse::parse_requirement(not_one, false, 1));
  }
}

TEST_CASE("the lenient reader also takes conda's forms and what pastes hold", "[requirements]") {
  auto r = parse::parse_requirement("conda-forge::tensorflow=2.18.1=cpu_py311h18e2dce_0", true, 3);
  REQUIRE(r);
  CHECK(r->package == "tensorflow");
  CHECK(r->spec == "=2.18.1=cpu_py311h18e2dce_0");
  CHECK(r->conda);
  r = parse::parse_requirement("tensorflow 2.18.1 cpu_py311h18e2dce_0", true, 3);
  REQUIRE(r);
  CHECK(r->spec == "=2.18.1=cpu_py311h18e2dce_0");
  r = parse::parse_requirement("python='3.10'", true, 1);
  REQUIRE(r);
  CHECK(r->spec == "=3.10");
  r = parse::parse_requirement("tensorflow ^2.15", false, 1);
  REQUIRE(r);
  CHECK(r->spec == "^2.15");
  CHECK_FALSE(parse_requirement("tensorflow ^2.15"));                      // pip refuses it, so the strict face does
  CHECK_FALSE(parse::parse_requirement("tensorflow is great", false, 1));  // prose
}
