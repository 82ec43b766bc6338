// The default distribution by name (wsl -l -v), for data push and agent start without --distro.
#include "win/tasks/default_distro.hpp"

#include <catch2/catch.hpp>

#include "tests/support/recording_process_runner.hpp"
#include "win/agent_service/distro_shell.hpp"

using namespace tfwsl;

namespace {

ProcessOutcome listed(const std::string& text) {
  ProcessOutcome o;
  o.exit_code = 0;
  o.out = text;
  return o;
}

const char* k_two_distros =
    "  NAME            STATE           VERSION\n"
    "  Debian          Stopped         2\n"
    "* Ubuntu-22.04    Running         2\n";

}  // namespace

TEST_CASE("without --distro, agent start names the distro wsl -l -v marks as the default", "[push]") {
  test::RecordingProcessRunner runner;
  runner.on({"wsl.exe", "-l", "-v"}, listed(k_two_distros));
  wsl::WslClient wsl(runner, wsl::WslSettings{});
  const std::string distro = cli::distro_or_default(wsl, "");
  CHECK(distro == "Ubuntu-22.04");
  // agent start's shell for that distro: every line it prints says "in Ubuntu-22.04".
  CHECK(agent_service::WslDistroShell(wsl, distro).where() == "in Ubuntu-22.04");
  REQUIRE(runner.requests().size() == 1);
  CHECK(runner.requests()[0].argv == std::vector<std::string>{"wsl.exe", "-l", "-v"});
}

TEST_CASE("a distro named with --distro is used as given, without asking wsl.exe", "[push]") {
  test::RecordingProcessRunner runner;
  wsl::WslClient wsl(runner, wsl::WslSettings{});
  CHECK(cli::distro_or_default(wsl, "Debian") == "Debian");
  CHECK(runner.requests().empty());
}

TEST_CASE("a wsl.exe that cannot tell leaves the default unnamed", "[push]") {
  test::RecordingProcessRunner runner;  // wsl.exe not found
  wsl::WslClient wsl(runner, wsl::WslSettings{});
  CHECK(cli::default_distro_name(wsl).empty());
  runner.on({"wsl.exe", "-l", "-v"}, listed("  NAME STATE VERSION\n  Debian Stopped 2\n  Alpine Stopped 2\n"));
  CHECK(cli::default_distro_name(wsl).empty());  // two, none marked
  CHECK(agent_service::WslDistroShell(wsl, "").where() == "in the default WSL distribution");
}
