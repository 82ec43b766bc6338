// The DSC resources run tfwsl's commands with the desired values as their arguments: a value too
// long for a command line (Windows takes 32,767 characters; Linux one argument of 128 KiB) is
// refused by name before anything runs, so the resources take what the typed commands take.
#include "win/fleet/tfwsl_invoker.hpp"

#include <catch2/catch.hpp>
#include <string>

using namespace tfwsl;
using namespace tfwsl::cli;

TEST_CASE("tfwsl invoker: a value too long for a command line is named, never run") {
  bool ran = false;
  InProcessTfwslInvoker tfwsl([&ran](const std::vector<std::string>&) {
    ran = true;
    return Invocation{0, "{}", ""};
  });
  const std::string value = "wsl2.kernelCommandLine=" + std::string(200000, 'x');
  auto reply = tfwsl.run({"wslconfig", "set", value, "--dry-run", "--json"});
  REQUIRE_FALSE(reply);
  const std::string said = reply.error().describe();
  CHECK(said.find("wsl2.kernelCommandLine=xxx") != std::string::npos);
  CHECK(said.find("200023 characters") != std::string::npos);
  CHECK_FALSE(ran);
}

TEST_CASE("tfwsl invoker: the command runs in this process and its output comes back") {
  std::vector<std::string> seen;
  InProcessTfwslInvoker tfwsl([&seen](const std::vector<std::string>& args) {
    seen = args;
    return Invocation{1, R"({"ok":true})", "a message\n"};
  });
  auto reply = tfwsl.run({"wslconfig", "show", "--json"});
  REQUIRE(reply);
  CHECK(seen == std::vector<std::string>{"wslconfig", "show", "--json"});
  CHECK(reply->exit_code == 1);
  CHECK(reply->err == "a message\n");
}
