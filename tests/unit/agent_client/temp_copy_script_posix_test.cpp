// The temp-copy run of the shipped agent (wsl_agent_host.hpp, temp_copy_script) under a real
// /bin/sh: a stand-in "agent" that is not executable where it lies (a drive mounted noexec) runs
// from a copy in $TMPDIR, gets its arguments and stdin, passes its exit code back, and the copy is
// gone afterwards, also when the shell is told to stop with SIGTERM.
#include <sys/stat.h>

#include <catch2/catch.hpp>

#include "common/process/process_runner.hpp"
#include "tests/support/test_environment.hpp"
#include "win/agent_client/wsl_agent_host.hpp"

using namespace tfwsl;
namespace fs = std::filesystem;

namespace {

// A stand-in agent left non-executable (0644), as on a noexec mount.
fs::path write_stand_in(const fs::path& dir, const std::string& body) {
  auto path = dir / "tfwsl-agent";
  test::write_file(path, "#!/bin/sh\n" + body);
  fs::permissions(path,
                  fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read | fs::perms::others_read);
  return path;
}

ProcessOutcome run_copy(const fs::path& tmp, const fs::path& agent, std::vector<std::string> args,
                        std::string stdin_data) {
  ProcessRequest request;
  request.argv = {"/bin/sh", "-c", agent_client::temp_copy_script(), "tfwsl-agent", agent.string()};
  request.argv.insert(request.argv.end(), args.begin(), args.end());
  request.env = {{"TMPDIR", tmp.string()}};
  request.stdin_data = std::move(stdin_data);
  request.timeout = std::chrono::seconds(20);
  SystemProcessRunner runner;
  auto outcome = runner.run(request);
  REQUIRE(outcome);
  return *outcome;
}

bool empty_dir(const fs::path& dir) { return fs::directory_iterator(dir) == fs::directory_iterator(); }

}  // namespace

TEST_CASE(
    "temp copy: a non-executable agent runs from a mktemp copy with its args and stdin, then the copy is removed") {
  test::TempDir source, tmp;
  // Prints where it runs from, its arguments and the first stdin line; exits 7.
  auto agent = write_stand_in(source.path(), "read line\nprintf '%s|%s|%s\\n' \"$0\" \"$*\" \"$line\"\nexit 7\n");
  auto outcome = run_copy(tmp.path(), agent, {"serve", "--listen", "127.0.0.1:0"}, "a-token\n");
  CAPTURE(outcome.err);
  CHECK(outcome.exit_code == 7);
  const std::string prefix = (tmp.path() / "tfwsl-agent.").string();
  CHECK(outcome.out.rfind(prefix, 0) == 0);
  CHECK(outcome.out.find("|serve --listen 127.0.0.1:0|a-token\n") != std::string::npos);
  CHECK(empty_dir(tmp.path()));
  // The source is as it was: still 0644, still the same bytes.
  CHECK((fs::status(agent).permissions() & fs::perms::owner_exec) == fs::perms::none);
}

TEST_CASE("temp copy: SIGTERM to the shell still removes the copy") {
  test::TempDir source, tmp;
  // The "agent" asks its parent (the shell) to stop, then ends as an agent does on a stop request.
  auto agent = write_stand_in(source.path(), "kill -TERM $PPID\nsleep 0.2\nexit 0\n");
  auto outcome = run_copy(tmp.path(), agent, {}, "");
  CAPTURE(outcome.err);
  CHECK(outcome.exit_code == 143);
  CHECK(empty_dir(tmp.path()));
}

TEST_CASE("temp copy: a copy that cannot be made is an error exit, nothing left behind") {
  test::TempDir tmp;
  auto outcome = run_copy(tmp.path(), tmp.path() / "no-such-agent", {}, "");
  CHECK(outcome.exit_code == 127);
  CHECK(outcome.err.find("no-such-agent") != std::string::npos);
  CHECK(empty_dir(tmp.path()));
}
