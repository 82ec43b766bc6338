// The DSC resources run tfwsl with the desired values on its command line: a value too long for one
// (Windows takes 32,767 characters; Linux one argument of 128 KiB) is refused by name before
// anything starts. Before, it reached the process start and came back as "could not start" (E2BIG).
#include "win/fleet/tfwsl_invoker.hpp"

#include <catch2/catch.hpp>
#include <string>

#include "common/process/process_runner.hpp"

using namespace tfwsl;
using namespace tfwsl::cli;

TEST_CASE("tfwsl invoker: a value too long for a command line is named, never started") {
  SystemProcessRunner runner;
  ChildTfwslInvoker tfwsl(runner, "tfwsl-invoker-test-never-started");
  const std::string value = "wsl2.kernelCommandLine=" + std::string(200000, 'x');
  auto reply = tfwsl.run({"wslconfig", "set", value, "--dry-run", "--json"});
  REQUIRE_FALSE(reply);
  const std::string said = reply.error().describe();
  CHECK(said.find("wsl2.kernelCommandLine=xxx") != std::string::npos);
  CHECK(said.find("200023 characters") != std::string::npos);
  CHECK(said.find("could not start") == std::string::npos);
}
