#include <catch2/catch.hpp>

#include <sstream>

#include "win/cli/cli_app.hpp"

using namespace tfwsl;

namespace {
struct Captured {
  int code;
  std::string out;
  std::string err;
};
Captured run(std::vector<std::string> args) {
  std::ostringstream out, err;
  Console console{out, err, false};
  int code = cli::run_cli(args, console);
  return {code, out.str(), err.str()};
}
}  // namespace

TEST_CASE("tfwsl --version prints the version on stdout", "[cli]") {
  auto r = run({"--version"});
  CHECK(r.code == 0);
  CHECK(r.out.find(std::string("tfwsl ") + TFWSL_VERSION) != std::string::npos);
}

TEST_CASE("tfwsl --help lists the usage and the exit codes", "[cli]") {
  auto r = run({"--help"});
  CHECK(r.code == 0);
  CHECK(r.out.find("Usage:") != std::string::npos);
  CHECK(r.out.find("Exit status") != std::string::npos);
}

TEST_CASE("an unknown subcommand exits 2 and says so on stderr", "[cli]") {
  auto r = run({"frobnicate"});
  CHECK(r.code == 2);
  CHECK(r.err.find("unknown command 'frobnicate'") != std::string::npos);
  CHECK(r.out.empty());
}

TEST_CASE("an unknown option exits 2", "[cli]") {
  auto r = run({"--frobnicate"});
  CHECK(r.code == 2);
}

TEST_CASE("flags before the command are not mistaken for commands or values", "[cli]") {
  CHECK(run({"-v", "frobnicate"}).err.find("unknown command 'frobnicate'") != std::string::npos);
  CHECK(run({"--log-file", "doctor.log", "frobnicate"}).err.find("unknown command 'frobnicate'") != std::string::npos);
  auto verbose_help = run({"-vv", "--help"});
  CHECK(verbose_help.code == 0);
}

TEST_CASE("a typo of a command gets a suggestion", "[cli]") {
  auto r = run({"-v", "docter"});
  CHECK(r.code == 2);
  CHECK(r.err.find("Did you mean 'doctor'?") != std::string::npos);
}
