// The child channel owns its reader threads and joins them, also when a grandchild keeps the
// child's pipes open after the child exited (the wsl.exe stand-in's relay can, as a real wsl.exe's
// children can). Readers that were detached there stayed blocked in a read past the end of main,
// where the static destructors met them: under Wine a page fault as tfwsl.exe exited.
#include <signal.h>
#include <sys/types.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <iterator>
#include <string>

#include "win/agent_client/child_channel.hpp"

using namespace tfwsl::agent_client;
using namespace std::chrono_literals;

namespace {

std::size_t threads_of_this_process() {
  return static_cast<std::size_t>(
      std::distance(std::filesystem::directory_iterator("/proc/self/task"), std::filesystem::directory_iterator()));
}

}  // namespace

TEST_CASE("a grandchild holding the pipes open: finish() stops both readers and joins them", "[child_channel]") {
  const auto before = threads_of_this_process();
  SystemChildLauncher launcher;
  // The shell exits at once; its background sleep inherits stdout and stderr and holds them open.
  auto channel = launcher.start({"/bin/sh", "-c", "sleep 30 & echo $!"}, {});
  REQUIRE(channel);
  auto pid_line = (*channel)->read_line(10s);
  REQUIRE(pid_line);
  const pid_t grandchild = static_cast<pid_t>(std::stol(*pid_line));
  CHECK(threads_of_this_process() == before + 2);  // the two readers
  const auto start = std::chrono::steady_clock::now();
  (*channel)->finish(1s);
  CHECK(std::chrono::steady_clock::now() - start < 10s);
  CHECK(threads_of_this_process() == before);  // none left running, detached, on the open pipes
  ::kill(grandchild, SIGKILL);
}
