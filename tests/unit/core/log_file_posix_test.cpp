// --log-file is opened by a program that may run as root (the agent's provision): a link there, a
// FIFO or a file another user owns is refused at start with the reason, and nothing is written
// through it (docs/safety-sweep.md, F1: the old open followed the link and spdlog appended to its
// target).
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>

#include "tests/support/captured_run.hpp"
#include "tests/support/cli_machine_run.hpp"
#include "tests/support/test_environment.hpp"
#include "win/app/cli_app.hpp"

using namespace tfwsl;

namespace {
test::Captured run(std::vector<std::string> args) { return test::run_captured(test::tfwsl_cli, std::move(args)); }
const std::string k_prefix = "tfwsl: cannot write the log file '";
}  // namespace

TEST_CASE("a --log-file that is a link is refused at start and its target keeps its bytes", "[cli]") {
  test::TempDir dir;
  const auto victim = dir.path() / "victim";
  test::write_file(victim, "precious");
  const auto link = dir.path() / "tfwsl.log";
  std::filesystem::create_symlink(victim, link);
  auto r = run({"--log-file", link.string(), "--log-level", "debug", "explain", "/nonexistent/pasted.txt"});
  CHECK(r.code == 2);
  CHECK(r.err == k_prefix + link.string() +
                     "': it is a link: name the file itself, tfwsl does not write its log through a link\n");
  CHECK(test::read_file(victim) == "precious");
  CHECK(std::filesystem::is_symlink(link));
}

TEST_CASE("a --log-file that is a FIFO is refused at once, not waited on", "[cli]") {
  test::TempDir dir;
  const auto fifo = dir.path() / "tfwsl.log";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  auto r = run({"--log-file", fifo.string(), "explain", "/nonexistent/pasted.txt"});
  CHECK(r.code == 2);
  CHECK(r.err == k_prefix + fifo.string() + "': it is a pipe or a socket, not a regular file\n");
}

TEST_CASE("a --log-file of this user's is used and gets mode 0600", "[cli]") {
  test::TempDir dir;
  const auto mine = dir.path() / "mine.log";
  test::write_file(mine, "");
  ::chmod(mine.c_str(), 0644);
  auto ok = run({"--log-file", mine.string(), "--log-level", "info", "explain", "/nonexistent/pasted.txt"});
  CHECK(ok.err.find(k_prefix) == std::string::npos);
  struct stat st {};
  REQUIRE(::stat(mine.c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0600);
}

TEST_CASE("a --log-file another user owns is refused by name and keeps its bytes", "[cli]") {
  if (::geteuid() != 0) test::skip("only root can give a file to another user");
  test::TempDir dir;
  const auto theirs = dir.path() / "theirs.log";
  test::write_file(theirs, "theirs");
  REQUIRE(::chown(theirs.c_str(), 65534, 65534) == 0);
  auto r = run({"--log-file", theirs.string(), "explain", "/nonexistent/pasted.txt"});
  CHECK(r.code == 2);
  CHECK(r.err == k_prefix + theirs.string() + "': it belongs to another user (uid 65534): name a file of your own\n");
  CHECK(test::read_file(theirs) == "theirs");
}
