// Where .wslconfig is: TFWSL_WSLCONFIG, %USERPROFILE%, and on Linux inside WSL the Windows profile
// through interop; elsewhere --file is required.
#include "common/wslconfig/wslconfig_location.hpp"

#include <catch2/catch.hpp>
#include <map>

#include "tests/support/recording_process_runner.hpp"

using namespace tfwsl;
using namespace tfwsl::wslconfig;

namespace {

EnvironmentLookup location_env_of(std::map<std::string, std::string> vars) {
  return [vars](const std::string& name) -> std::optional<std::string> {
    auto it = vars.find(name);
    if (it == vars.end()) return std::nullopt;
    return it->second;
  };
}

ProcessOutcome location_printed(std::string out) {
  ProcessOutcome o;
  o.exit_code = 0;
  o.out = std::move(out);
  return o;
}

}  // namespace

TEST_CASE("on Windows: TFWSL_WSLCONFIG, else the user's profile", "[wslconfig][location]") {
  test::RecordingProcessRunner runner;
  CHECK(*locate_wslconfig(location_env_of({{"USERPROFILE", "C:\\Users\\me"}}), runner, true) ==
        "C:\\Users\\me\\.wslconfig");
  CHECK(*locate_wslconfig(location_env_of({{"USERPROFILE", "C:\\Users\\me"}, {"TFWSL_WSLCONFIG", "D:\\w"}}), runner,
                          true) == "D:\\w");
  CHECK_FALSE(locate_wslconfig(location_env_of({}), runner, true));
  CHECK(runner.requests().empty());
}

TEST_CASE("inside WSL: the Windows profile through interop", "[wslconfig][location]") {
  test::RecordingProcessRunner runner;
  runner.on({"cmd.exe", "/C"}, location_printed("C:\\Users\\me\r\n"));
  runner.on({"wslpath", "-u", "C:\\Users\\me"}, location_printed("/mnt/c/Users/me\n"));
  auto path = locate_wslconfig(location_env_of({{"WSL_DISTRO_NAME", "Ubuntu"}}), runner, false);
  REQUIRE(path);
  CHECK(*path == "/mnt/c/Users/me/.wslconfig");
}

TEST_CASE("inside WSL without interop, and on plain Linux, --file is required", "[wslconfig][location]") {
  test::RecordingProcessRunner runner;  // cmd.exe not found: interop is off
  auto in_wsl = locate_wslconfig(location_env_of({{"WSL_DISTRO_NAME", "Ubuntu"}}), runner, false);
  REQUIRE_FALSE(in_wsl);
  CHECK(in_wsl.error().message.find("--file") != std::string::npos);
  auto plain = locate_wslconfig(location_env_of({}), runner, false);
  REQUIRE_FALSE(plain);
  CHECK(plain.error().message.find("pass --file PATH") != std::string::npos);
}
