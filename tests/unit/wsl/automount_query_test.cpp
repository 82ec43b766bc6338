// The automount root asked of the Linux tfwsl runs on (migrate inside a distro): wslpath's answer,
// the default where there is no wslpath (a Linux that is not WSL), and the default where wslpath
// answers nothing usable.
#include "win/wsl/automount_query.hpp"

#include <catch2/catch.hpp>

#include "common/process/process_runner.hpp"
#include "common/wsl/drive_path.hpp"
#include "tests/support/recording_process_runner.hpp"

using tfwsl::ProcessOutcome;
using tfwsl::test::RecordingProcessRunner;
using tfwsl::wsl::local_automount_root;

TEST_CASE("the local automount root is what wslpath says for drive C here", "[wsl][automount]") {
  RecordingProcessRunner runner;
  runner.on({"wslpath"}, ProcessOutcome{.exit_code = 0, .out = "/windir/c\n"});
  CHECK(local_automount_root(runner) == "/windir/");
  const auto requests = runner.requests();
  REQUIRE(requests.size() == 1);
  CHECK(requests[0].argv == std::vector<std::string>{"wslpath", "-u", "C:\\"});
}

TEST_CASE("a distro with root = / maps drives right under /", "[wsl][automount]") {
  RecordingProcessRunner runner;
  runner.on({"wslpath"}, ProcessOutcome{.exit_code = 0, .out = "/c/\n"});
  CHECK(local_automount_root(runner) == "/");
}

TEST_CASE("without wslpath (not WSL) and with an unusable answer the root is WSL's default", "[wsl][automount]") {
  RecordingProcessRunner missing;  // no rule: the program is not found
  CHECK(local_automount_root(missing) == tfwsl::wsl::k_default_automount_root);
  RecordingProcessRunner failing;
  failing.on({"wslpath"}, ProcessOutcome{.exit_code = 1, .err = "wslpath: C:\\: Invalid argument\n"});
  CHECK(local_automount_root(failing) == tfwsl::wsl::k_default_automount_root);
  RecordingProcessRunner garbled;
  garbled.on({"wslpath"}, ProcessOutcome{.exit_code = 0, .out = "/mnt/d\n"});  // not C:'s mount
  CHECK(local_automount_root(garbled) == tfwsl::wsl::k_default_automount_root);
}
