// Issue 22, item 14: what SystemProcessRunner's child starts ends with it, on every path: the
// timeout (the whole process group is killed, not only the child), and after the child's own exit
// (a `sleep` it left running in the background). Signals and exit codes still come back as before.
#include <signal.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <fstream>
#include <string>
#include <thread>

#include "common/process/process_runner.hpp"

using namespace tfwsl;
using namespace std::chrono_literals;

namespace {

bool alive(long pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
  const auto close = text.rfind(')');
  return close != std::string::npos && text.size() > close + 2 && text[close + 2] != 'Z';
}

bool gone_within(long pid, std::chrono::milliseconds limit) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  while (alive(pid) && std::chrono::steady_clock::now() < deadline) std::this_thread::sleep_for(20ms);
  return !alive(pid);
}

long first_number(const std::string& text) { return std::stol(text.substr(0, text.find('\n'))); }

}  // namespace

TEST_CASE("a child past its timeout is killed with everything it started", "[process]") {
  ProcessRequest request{{"/bin/sh", "-c", "sleep 300 & echo $!; wait"}};
  request.timeout = 1s;
  auto outcome = SystemProcessRunner().run(request);
  REQUIRE(outcome);
  CHECK(outcome->timed_out);
  REQUIRE_FALSE(outcome->out.empty());
  CHECK(gone_within(first_number(outcome->out), 2s));
}

TEST_CASE("a child that exits leaving a background process: it is ended, and the run does not wait for it",
          "[process]") {
  ProcessRequest request{{"/bin/sh", "-c", "sleep 300 & echo $!"}};
  request.timeout = 20s;
  const auto started = std::chrono::steady_clock::now();
  auto outcome = SystemProcessRunner().run(request);
  REQUIRE(outcome);
  CHECK_FALSE(outcome->timed_out);
  CHECK(outcome->exit_code == 0);
  CHECK(std::chrono::steady_clock::now() - started < 10s);
  REQUIRE_FALSE(outcome->out.empty());
  CHECK(gone_within(first_number(outcome->out), 2s));
}

TEST_CASE("a child killed by a signal, and its output, still come back as before", "[process]") {
  auto outcome = SystemProcessRunner().run({{"/bin/sh", "-c", "echo said; kill -TERM $$"}});
  REQUIRE(outcome);
  CHECK(outcome->out == "said\n");
  CHECK(outcome->exit_code != 0);
  auto plain = SystemProcessRunner().run({{"/bin/sh", "-c", "echo out; echo err >&2; exit 7"}});
  REQUIRE(plain);
  CHECK(plain->exit_code == 7);
  CHECK(plain->out == "out\n");
  CHECK(plain->err == "err\n");
}

// Issue 27: a writer that outlives the child and escaped its group (as Wine's conhost holds a
// Windows child's pipes a little after it exits) kept the pipe open past the drain, and the runner
// then returned *nothing* of what the child had written: `tfwsl-agent project read` answered
// "exited 0 without its JSON answer" and an empty /proc/mounts made migrate exit 2 under load.
TEST_CASE("what a child wrote comes back although a process it left behind holds its pipes open", "[process]") {
  ProcessRequest request{{"/bin/sh", "-c", "echo answer; echo on-stderr >&2; setsid sleep 6 & echo $!"}};
  request.timeout = 20s;
  const auto started = std::chrono::steady_clock::now();
  auto outcome = SystemProcessRunner().run(request);
  REQUIRE(outcome);
  CHECK(std::chrono::steady_clock::now() - started < 5s);
  CHECK(outcome->exit_code == 0);
  CHECK(outcome->out.rfind("answer\n", 0) == 0);
  CHECK(outcome->err == "on-stderr\n");
  const auto lines = outcome->out.substr(outcome->out.find('\n') + 1);
  if (!lines.empty()) ::kill(static_cast<pid_t>(first_number(lines)), SIGKILL);
}
