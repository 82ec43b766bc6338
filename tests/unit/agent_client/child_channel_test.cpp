// The real child channel (Boost.Process pipes) with the scripted test child: a write to a child that
// has already exited is an error value, not a signal that ends tfwsl (SIGPIPE on POSIX), and a
// bridge pointed at a program that is not an agent reports it instead of dying.
#include <catch2/catch.hpp>
#include <thread>

#include "tests/support/fake_agent_bridge.hpp"
#include "tests/support/test_environment.hpp"
#include "win/agent_client/agent_bridge.hpp"
#include "win/agent_client/local_agent_host.hpp"

using namespace tfwsl;
using namespace tfwsl::agent_client;

namespace {

std::string child() { return test::helper_program("tfwsl_test_child").string(); }

}  // namespace

TEST_CASE("writing to a child that has exited is an error, and tfwsl lives on") {
  SystemChildLauncher launcher;
  auto channel = launcher.start({child(), "exit", "3"}, {});
  REQUIRE(channel);
  for (int i = 0; i < 200 && (*channel)->running(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  REQUIRE_FALSE((*channel)->running());
  Status written;
  // The first writes may still land in the pipe's buffer; a pipe without a reader fails soon after.
  for (int i = 0; i < 64 && written; ++i) written = (*channel)->write(std::string(4096, 'x'));
  CHECK_FALSE(written);
  CHECK((*channel)->exit_code() == 3);
}

TEST_CASE("a bridge started on a program that is not an agent says so and does not die") {
  SystemChildLauncher launcher;
  LocalAgentHost host(launcher, child());
  test::FakeLoopback loopback(test::FakeLoopback::Mode::agent);
  BridgeOptions options;
  options.expected_version = "0.1.0";
  options.handshake_timeout = std::chrono::seconds(10);
  auto session = connect_agent(host, loopback, options);
  REQUIRE(!session);
  CHECK(session.error().message.find("could not be started on this machine") != std::string::npos);
  CHECK(loopback.ports.empty());
}
