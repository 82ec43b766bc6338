#include "common/provision/environment_marker.hpp"

#include <catch2/catch.hpp>

using namespace tfwsl;
using namespace tfwsl::provision;

namespace {

bool holds(std::string_view marker) {
  auto r = evaluate_marker(marker, linux_marker_environment("3.11.7", "x86_64"));
  INFO(marker << (r ? "" : ": " + r.error().message));
  REQUIRE(r);
  return *r;
}

bool cannot_evaluate(std::string_view marker) {
  return !evaluate_marker(marker, linux_marker_environment("3.11.7", "x86_64"));
}

}  // namespace

TEST_CASE("markers: the platform variables are Linux's", "[marker]") {
  CHECK_FALSE(holds("sys_platform == \"win32\""));
  CHECK(holds("sys_platform == 'linux'"));
  CHECK(holds("sys_platform != 'win32'"));
  CHECK_FALSE(holds("platform_system == 'Windows'"));
  CHECK(holds("platform_system == 'Linux'"));
  CHECK_FALSE(holds("os_name == 'nt'"));
  CHECK(holds("os_name == \"posix\""));
  CHECK(holds("platform_machine == 'x86_64'"));
  CHECK_FALSE(holds("platform_machine == 'aarch64'"));
  CHECK(holds("sys.platform == 'linux'"));  // the legacy dotted names packaging still accepts
}

TEST_CASE("markers: python_version compares as versions, from the venv", "[marker]") {
  CHECK(holds("python_version >= '3.9'"));
  CHECK(holds("python_version > '3.8'"));
  CHECK_FALSE(holds("python_version < '3.10'"));
  CHECK(holds("python_version > '3.9'"));  // as strings, "3.11" > "3.9" would be false
  CHECK(holds("python_version <= '3.11'"));
  CHECK(holds("python_version == '3.11'"));
  CHECK(holds("python_version == '3.*'"));
  CHECK_FALSE(holds("python_version != '3.11'"));
  CHECK(holds("python_full_version == '3.11.7'"));
  CHECK(holds("python_full_version >= '3.11.4'"));
  CHECK(holds("python_version ~= '3.10'"));
  CHECK(holds("'3.8' < python_version"));  // the variable on the right
}

TEST_CASE("markers: in, not in, and, or, parentheses", "[marker]") {
  CHECK(holds("python_version in '3.10 3.11 3.12'"));
  CHECK_FALSE(holds("python_version not in '3.10 3.11'"));
  CHECK(holds("'linux' in sys_platform"));
  CHECK(holds("sys_platform not in 'win32 cygwin'"));
  CHECK_FALSE(holds("sys_platform == 'win32' and python_version >= '3.8'"));
  CHECK(holds("sys_platform == 'win32' or python_version >= '3.8'"));
  // `and` binds tighter than `or`: true or (false and false).
  CHECK(holds("sys_platform == 'linux' or sys_platform == 'win32' and os_name == 'nt'"));
  CHECK_FALSE(holds("(sys_platform == 'linux' or sys_platform == 'win32') and os_name == 'nt'"));
  CHECK(holds("( python_version>='3.8' )and(platform_system=='Linux')"));
  CHECK_FALSE(holds("extra == 'test'"));  // no extra is asked for in a requirements file
}

TEST_CASE("markers: what cannot be evaluated is an error, never a guess", "[marker]") {
  CHECK(cannot_evaluate("platform_release >= '5.15'"));  // a variable this check does not know
  CHECK(cannot_evaluate("implementation_name == 'cpython'"));
  CHECK(cannot_evaluate("sys_platform == 'linux' or platform_release == 'x'"));  // even beside a true one
  CHECK(cannot_evaluate("sys_platform == "));                                    // syntax
  CHECK(cannot_evaluate("sys_platform = 'linux'"));
  CHECK(cannot_evaluate("(sys_platform == 'linux'"));
  CHECK(cannot_evaluate("sys_platform == 'linux' and"));
  CHECK(cannot_evaluate("sys_platform == 'linux' extra"));
  CHECK(cannot_evaluate("sys_platform ~= 'linux'"));  // no version, and strings have no ~=
  CHECK(cannot_evaluate("sys_platform == 'linux"));   // unterminated string
  auto r = evaluate_marker("platform_release >= '5.15'", linux_marker_environment("3.11.7", "x86_64"));
  REQUIRE_FALSE(r);
  CHECK(r.error().message.find("platform_release") != std::string::npos);
}
