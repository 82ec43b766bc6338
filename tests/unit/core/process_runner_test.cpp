#include "common/process/process_runner.hpp"

#include <catch2/catch.hpp>
#include <cstdlib>
#include <stop_token>
#include <thread>

#include "common/process/stoppable_process_runner.hpp"
#include "common/process/windows_command_line.hpp"
#include "tests/support/recording_process_runner.hpp"
#include "tests/support/test_environment.hpp"

using namespace tfwsl;
using namespace std::chrono_literals;

namespace {

std::string child() { return test::helper_program("tfwsl_test_child").string(); }

std::string hex(const std::string& s) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  for (unsigned char c : s) {
    out += digits[c >> 4];
    out += digits[c & 15];
  }
  return out;
}

ProcessOutcome run_ok(ProcessRequest request) {
  SystemProcessRunner runner;
  auto outcome = runner.run(request);
  REQUIRE(outcome);
  return *outcome;
}

}  // namespace

TEST_CASE("the exit code comes back as data", "[process]") {
  CHECK(run_ok({{child(), "exit", "0"}}).exit_code == 0);
  CHECK(run_ok({{child(), "exit", "3"}}).exit_code == 3);
  CHECK(run_ok({{child(), "exit", "255"}}).exit_code == 255);
}

TEST_CASE("arguments arrive byte for byte: spaces, quotes, backslashes, non-ASCII", "[process]") {
  std::vector<std::string> tricky{"plain",
                                  "with space",
                                  "",
                                  "\"quoted\"",
                                  "trailing backslash\\",
                                  "C:\\Program Files\\x\\",
                                  "a\\\\\"b",
                                  "--exec=echo 'single'",
                                  "$(rm -rf /) ; | & > <",
                                  "J\xC3\xBCrgen \xE4\xB8\xAD\xE6\x96\x87"};
  std::vector<std::string> argv{child(), "args"};
  argv.insert(argv.end(), tricky.begin(), tricky.end());
  auto outcome = run_ok({argv});
  std::string expected;
  for (const auto& a : tricky) expected += hex(a) + "\n";
  CHECK(outcome.exit_code == 0);
  CHECK(outcome.out == expected);
}

TEST_CASE("stdin data reaches the child and stdin is closed after it", "[process]") {
  std::string data(200000, 'x');
  data += "end";
  auto outcome = run_ok({{child(), "cat"}, data});
  CHECK(outcome.out == data);
  CHECK(run_ok({{child(), "cat"}}).out.empty());
}

TEST_CASE("10 MB on stdout and stderr at once do not deadlock", "[process]") {
  const long n = 10 * 1024 * 1024;
  auto outcome = run_ok({{child(), "flood", std::to_string(n)}, std::nullopt, {}, std::nullopt, 120s});
  CHECK_FALSE(outcome.timed_out);
  CHECK(outcome.out.size() == static_cast<std::size_t>(n));
  CHECK(outcome.err.size() == static_cast<std::size_t>(n));
}

TEST_CASE("a child past its timeout is killed and reported", "[process]") {
  auto outcome = run_ok({{child(), "sleep", "20000"}, std::nullopt, {}, std::nullopt, 500ms});
  CHECK(outcome.timed_out);
  CHECK(outcome.out.empty());  // it never woke up
  CHECK(outcome.elapsed < 15s);
}

TEST_CASE("a stoppable runner ends its child once the stop is requested, and a later child at once", "[process]") {
  std::stop_source stop;
  StoppableProcessRunner runner(stop.get_token());
  std::jthread stopper([&stop] {
    std::this_thread::sleep_for(300ms);  // while the child below sleeps
    stop.request_stop();
  });
  auto outcome = runner.run({{child(), "sleep", "20000"}, std::nullopt, {}, std::nullopt, 20s});
  REQUIRE(outcome);
  CHECK(outcome->timed_out);
  CHECK(outcome->out.empty());  // it never woke up
  CHECK(outcome->elapsed < 10s);
  auto later = runner.run({{child(), "sleep", "20000"}, std::nullopt, {}, std::nullopt, 20s});
  REQUIRE(later);
  CHECK(later->timed_out);
  CHECK(later->elapsed < 10s);
}

TEST_CASE("a child that closes its pipes before exiting is waited for, not reported as timed out", "[process]") {
  auto outcome = run_ok({{child(), "quiet-exit", "300"}, std::nullopt, {}, std::nullopt, 10s});
  CHECK_FALSE(outcome.timed_out);
  CHECK(outcome.exit_code == 7);
  CHECK(outcome.out == "closing\n");
}

TEST_CASE("environment overrides and the working directory reach the child", "[process]") {
  auto env = run_ok({{child(), "env", "WSL_UTF8"}, std::nullopt, {{"WSL_UTF8", "1"}}});
  CHECK(env.out == "1");
  test::TempDir dir;
  auto cwd = run_ok({{child(), "cwd"}, std::nullopt, {}, dir.path()});
  CHECK(std::filesystem::equivalent(std::filesystem::path(cwd.out), dir.path()));
}

TEST_CASE("a missing program is an error, not an exit code", "[process]") {
  SystemProcessRunner runner;
  auto by_name = runner.run({{"tfwsl-no-such-program-xyz"}});
  REQUIRE_FALSE(by_name);
  CHECK(by_name.error().code == ErrorCode::not_found);
  CHECK(by_name.error().message.find("tfwsl-no-such-program-xyz") != std::string::npos);
  auto by_path = runner.run({{(test::binary_dir() / "missing-helper").string()}});
  REQUIRE_FALSE(by_path);
  CHECK(by_path.error().code == ErrorCode::not_found);
}

TEST_CASE("Windows command lines survive CommandLineToArgvW's rules", "[process][windows-quoting]") {
  // Torture table: each argv must come back unchanged after build + split.
  std::vector<std::vector<std::string>> cases{
      {"wsl.exe", "-d", "Ubuntu-22.04", "--exec", "/usr/local/bin/tfwsl-agent", "serve"},
      {"a b", "c\"d", "e\\", "f\\\\\"", "", "\t", "\\\\server\\share\\", "x\\y z"},
      {"\"", "\\\"", "\\\\", "\\ \\"},
  };
  for (const auto& argv : cases) {
    auto line = build_windows_command_line(argv);
    CAPTURE(line);
    CHECK(split_windows_command_line(line) == argv);
  }
  CHECK(build_windows_command_line({"plain", "C:\\Program Files\\", "say \"hi\""}) ==
        "plain \"C:\\Program Files\\\\\" \"say \\\"hi\\\"\"");
  CHECK(split_windows_command_line("a\\\\\\\"b \"c d\"") == std::vector<std::string>{"a\\\"b", "c d"});
}

TEST_CASE("the recording fake records requests and answers by argv prefix", "[process][fake]") {
  test::RecordingProcessRunner fake;
  ProcessOutcome status;
  status.exit_code = 0;
  status.out = "Default Version: 2";
  fake.on({"wsl.exe", "--status"}, status);
  auto r = fake.run({{"wsl.exe", "--status"}, std::nullopt, {{"WSL_UTF8", "1"}}});
  REQUIRE(r);
  CHECK(r->out == "Default Version: 2");
  CHECK_FALSE(fake.run({{"wsl.exe", "--version"}}));
  REQUIRE(fake.requests().size() == 2);
  CHECK(fake.requests()[0].env.at("WSL_UTF8") == "1");
}

TEST_CASE("a request's environment reaches only the child, never this process", "[process]") {
  REQUIRE(std::getenv("TFWSL_TEST_CHILD_ONLY") == nullptr);
  auto env = run_ok({{child(), "env", "TFWSL_TEST_CHILD_ONLY"}, std::nullopt, {{"TFWSL_TEST_CHILD_ONLY", "1"}}});
  CHECK(env.out == "1");
  CHECK(std::getenv("TFWSL_TEST_CHILD_ONLY") == nullptr);
}
