#include "common/cli/command_line.hpp"

#include <catch2/catch.hpp>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/core/exit_codes.hpp"
#include "tests/support/captured_run.hpp"
#include "tests/support/cli_machine_run.hpp"
#include "win/app/cli_app.hpp"

using namespace tfwsl;

namespace {
test::Captured run(std::vector<std::string> args) { return test::run_captured(test::tfwsl_cli, std::move(args)); }
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
  CHECK(run({"--log-level", "info", "frobnicate"}).err.find("unknown command 'frobnicate'") != std::string::npos);
  CHECK(run({"--log-file", "doctor.log", "frobnicate"}).err.find("unknown command 'frobnicate'") != std::string::npos);
  CHECK(run({"--color", "never", "frobnicate"}).err.find("unknown command 'frobnicate'") != std::string::npos);
  auto debug_help = run({"--log-level", "debug", "--help"});
  CHECK(debug_help.code == 0);
}

TEST_CASE("a typo of a command gets a suggestion", "[cli]") {
  auto r = run({"--log-level=info", "docter"});
  CHECK(r.code == 2);
  CHECK(r.err == "tfwsl: unknown command 'docter'; did you mean 'doctor'?\n");
}

TEST_CASE("an unknown command far from any lists the commands", "[cli]") {
  auto r = run({"frobnicate"});
  CHECK(r.code == 2);
  CHECK(r.err.find("The commands are:") != std::string::npos);
  CHECK(r.err.find("\n  doctor ") != std::string::npos);
  CHECK(r.err.find("\n  explain ") != std::string::npos);
}

TEST_CASE("a mistyped option names the program, the command and the option it resembles", "[cli]") {
  auto r = run({"explain", "--jsn", "f"});
  CHECK(r.code == 2);
  CHECK(r.err.rfind("tfwsl explain: unknown option --jsn; did you mean --json?\n", 0) == 0);
  CHECK(r.out.empty());
  auto doctor = run({"doctor", "--profle=x"});
  CHECK(doctor.code == 2);
  CHECK(doctor.err.rfind("tfwsl doctor: unknown option --profle; did you mean --profile?\n", 0) == 0);
  auto global = run({"--log-levle", "info", "doctor"});
  CHECK(global.err.rfind("tfwsl: unknown option --log-levle; did you mean --log-level?\n", 0) == 0);
}

TEST_CASE("the details flag -v belongs to commands: refused before the command, with where it goes", "[cli]") {
  auto r = run({"-v", "doctor"});
  CHECK(r.code == 2);
  // At 80 columns the list of commands goes on the next line (fit_to_width).
  CHECK(r.err.find("tfwsl: unknown option -v; it is an option of a command, given after it:\n  ") == 0);
  CHECK(r.err.find("'tfwsl doctor -v'") != std::string::npos);
  CHECK(run({"-vv", "explain", "f"}).code == 2);
}

TEST_CASE("tfwsl explain -v FILE is accepted: details", "[cli]") {
  auto r = run({"explain", "-v", "/nonexistent/pasted.txt"});
  CHECK(r.err.find("unknown option") == std::string::npos);
  CHECK(r.err.find("does not exist") != std::string::npos);  // it got as far as reading the file
}

TEST_CASE("the global options work after the command too, and check their values", "[cli]") {
  CHECK(run({"explain", "--log-level", "debug", "/nonexistent/pasted.txt"}).err.find("does not exist") !=
        std::string::npos);
  auto bad_level = run({"--log-level", "loud", "explain", "f"});
  CHECK(bad_level.code == 2);
  CHECK(bad_level.err.find("tfwsl explain: --log-level: loud not in {trace,debug,info,warn,error,off}") == 0);
  auto bad_color = run({"--color", "sometimes", "explain", "f"});
  CHECK(bad_color.code == 2);
  CHECK(bad_color.err.find("--color") != std::string::npos);
}

TEST_CASE("a --log-file in a folder that does not exist is an error at start, with the path and the reason", "[cli]") {
  const std::string missing = "/nonexistent-tfwsl-test-folder/sub/tfwsl.log";
  auto r = run({"--log-file", missing, "explain", "/nonexistent/pasted.txt"});
  CHECK(r.code == 2);
  CHECK(r.err == "tfwsl: cannot write the log file '" + missing +
                     "': the folder '/nonexistent-tfwsl-test-folder/sub' does not exist\n");
}

TEST_CASE("a --log-file that is a folder is an error at start", "[cli]") {
  auto folder = run({"--log-file", ".", "explain", "/nonexistent/pasted.txt"});
  CHECK(folder.code == 2);
  CHECK(folder.err == "tfwsl: cannot write the log file '.': it is a folder\n");
}

TEST_CASE("doctor --bundle into a folder that does not exist fails before the checks run", "[cli]") {
  auto r = run({"doctor", "--bundle", "/nonexistent-tfwsl-test-folder/report.tar"});
  CHECK(r.code == 2);
  CHECK(r.err.find("tfwsl doctor: ") == 0);
  CHECK(r.err.find("/nonexistent-tfwsl-test-folder/report.tar") != std::string::npos);
  CHECK(r.err.find("does not exist") != std::string::npos);
  CHECK(r.out.empty());  // no report: nothing was checked
}

TEST_CASE("every command's --help ends with examples and the program's lists the exit codes once", "[cli]") {
  for (const char* command : {"doctor", "explain"}) {
    auto r = run({command, "--help"});
    CAPTURE(command);
    CHECK(r.code == 0);
    auto examples = r.out.find("Examples:\n  ");
    REQUIRE(examples != std::string::npos);
    CHECK(r.out.find("tfwsl " + std::string(command), examples) != std::string::npos);
  }
  auto top = run({"--help"});
  CHECK(top.out.find("Examples:\n  tfwsl doctor") != std::string::npos);
  for (const char* row :
       {"\n  0    everything ok", "\n  1    ", "\n  2    ", "\n  3    ", "\n  130  interrupted (Ctrl-C)"})
    CHECK(top.out.find(row) != std::string::npos);
  CHECK(run({"doctor", "--help"}).out.find("130") == std::string::npos);  // once: in tfwsl --help
}

namespace {

// Every command path of tfwsl ("", "doctor", "profile diff", ...), walked through the registered apps.
std::vector<std::vector<std::string>> every_command_path() {
  std::vector<std::vector<std::string>> paths{{}};
  for (std::size_t i = 0; i < paths.size(); ++i) {
    std::vector<std::string> args = paths[i];
    args.push_back("--help");
    const std::string help = run(args).out;
    const auto listed = help.find("\nSubcommands:\n");
    if (listed == std::string::npos) continue;
    std::istringstream lines(help.substr(listed + 14));
    for (std::string line; std::getline(lines, line) && !line.empty();) {
      if (line.rfind("  ", 0) != 0 || line[2] == ' ') continue;
      std::vector<std::string> sub = paths[i];
      sub.push_back(line.substr(2, line.find(' ', 2) - 2));
      paths.push_back(sub);
    }
  }
  return paths;
}

}  // namespace

// Issue 43, item 11: CLI11's own words leaked into every --help: a TEXT placeholder that says
// nothing of the value, and "Excludes: --check" beside an option's name.
TEST_CASE("no --help shows a TEXT placeholder or an Excludes list", "[cli]") {
  const auto paths = every_command_path();
  CHECK(paths.size() > 10);
  for (auto args : paths) {
    args.push_back("--help");
    const std::string help = run(args).out;
    INFO(help);
    CHECK(help.find(" TEXT") == std::string::npos);
    CHECK(help.find(":TEXT") == std::string::npos);
    CHECK(help.find("Excludes:") == std::string::npos);
  }
}

TEST_CASE("an argument a command does not take is named in plain words and not in CLI11's", "[cli]") {
  auto r = run({"doctor", "stray"});
  CHECK(r.code == 2);
  CHECK(r.err.find("The following argument") == std::string::npos);
  CHECK(r.err.find("tfwsl doctor: 'stray' is not an argument of this command") == 0);
  CHECK(r.err.find("Run 'tfwsl doctor --help' for its options.") != std::string::npos);
}

// Issue 43, item 15: exit 3 said "please report it" with nowhere to report it.
TEST_CASE("an internal error and tfwsl --help name where to report a bug and what to attach", "[cli]") {
  std::ostringstream out, err;
  Console console{out, err, false};
  CLI::App app{"test", "tfwsl"};
  GlobalOptions globals;
  CommandTable commands;
  commands.add(app.add_subcommand("boom", "throws"), []() -> int { throw std::runtime_error("kaboom"); });
  CHECK(run_command_line(app, commands, {"boom"}, console, globals, "tfwsl-test") == exit_code::k_internal);
  for (const std::string& text : {err.str(), run({"--help"}).out}) {
    INFO(text);
    CHECK(text.find("https://github.com/tfwsl/tfwsl/issues") != std::string::npos);
    CHECK(text.find("tfwsl doctor --bundle tfwsl-doctor.tar") != std::string::npos);
  }
}
