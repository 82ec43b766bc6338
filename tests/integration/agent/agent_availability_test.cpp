// Availability against the real agent: clients without a token that connect and never finish a
// request must not delay a legitimate one; a trickled head is cut off by a total deadline; stdin EOF
// ends the agent every time, however early it comes.
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>

#include "tests/integration/agent/agent_process.hpp"
#include "tests/integration/agent/slow_clients.hpp"
#include "tests/support/test_environment.hpp"

using namespace tfwsl::test;
using namespace std::chrono_literals;

namespace {

using AvailClock = std::chrono::steady_clock;

std::string get_info(const AgentProcess& a) {
  return "GET /v1/info HTTP/1.1\r\nHost: " + a.host() + "\r\n" + a.auth() + "Connection: close\r\n\r\n";
}

// Ten authenticated GET /v1/info in a row, each answered 200 within a second.
void expect_info_answered_promptly(const AgentProcess& a) {
  for (int i = 0; i < 10; ++i) {
    auto start = AvailClock::now();
    auto res = raw_exchange(a.port(), get_info(a), 3s);
    auto took = std::chrono::duration_cast<std::chrono::milliseconds>(AvailClock::now() - start);
    INFO("request " << i << " took " << took.count() << " ms");
    REQUIRE(status_of(res) == 200);
    CHECK(took < 1s);
  }
}

// Seconds from now until the agent closes `fd` (reading and discarding what it sends), while
// `feed` is called every 100 ms; nothing when still open after `limit`.
std::optional<AvailClock::duration> time_until_closed(int fd, AvailClock::duration limit,
                                                      const std::function<void()>& feed,
                                                      std::string* answer = nullptr) {
  auto start = AvailClock::now();
  char buf[4096];
  while (AvailClock::now() - start < limit) {
    pollfd p{fd, POLLIN, 0};
    if (poll(&p, 1, 100) > 0) {
      auto n = recv(fd, buf, sizeof buf, 0);
      if (n <= 0) return AvailClock::now() - start;
      if (answer) answer->append(buf, static_cast<std::size_t>(n));
      continue;
    }
    feed();
  }
  return std::nullopt;
}

}  // namespace

TEST_CASE("50 idle and trickling clients without a token do not delay an authenticated request", "[availability]") {
  // A long --timeout: a per-read timeout of 15 s is what let trickling clients hold the workers.
  AgentProcess a({"--python", "/nonexistent/python", "--timeout", "15"});
  SlowClients slow(a.port(), 25, 25, 500ms);
  REQUIRE(slow.connected() == 50);
  std::this_thread::sleep_for(300ms);  // they have all been accepted and sent a few bytes
  expect_info_answered_promptly(a);
  CHECK(a.alive());
}

TEST_CASE("8 trickling clients (one byte a second) do not take every worker", "[availability]") {
  AgentProcess a({"--python", "/nonexistent/python"});
  SlowClients slow(a.port(), 0, 8, 1000ms);
  REQUIRE(slow.connected() == 8);
  std::this_thread::sleep_for(300ms);
  expect_info_answered_promptly(a);
}

TEST_CASE("50 idle clients that reconnect when closed do not delay an authenticated request", "[availability]") {
  AgentProcess a({"--python", "/nonexistent/python", "--timeout", "2"});
  SlowClients slow(a.port(), 50, 0, 1000ms);
  REQUIRE(slow.connected() == 50);
  std::this_thread::sleep_for(300ms);
  expect_info_answered_promptly(a);
  // The head deadline (3 s from the accept) closes idle clients, and they come back: wait for the
  // first close itself (bounded), then ask again under that churn.
  CHECK(slow.wait_closed_by_agent(1, 15s));
  expect_info_answered_promptly(a);
}

TEST_CASE("a trickled request head is closed by the total head deadline", "[availability]") {
  AgentProcess a({"--python", "/nonexistent/python", "--timeout", "30"});
  int fd = connect_loopback(a.port());
  REQUIRE(fd >= 0);
  std::string head = "GET /v1/info HTTP/1.1\r\nHost: " + a.host() + "\r\nX-Slow: " + std::string(1000, 'a');
  std::size_t sent = 0;
  std::string answer;
  // One byte every 100 ms: every single read is quick, only the total can stop it.
  auto closed = time_until_closed(
      fd, 10s,
      [&] {
        if (sent < head.size() && send(fd, &head[sent], 1, MSG_NOSIGNAL) == 1) ++sent;
      },
      &answer);
  ::close(fd);
  REQUIRE(closed.has_value());
  CHECK(*closed < 5s);  // the deadline is 3 s from the accept
  CHECK(*closed > 2s);
  CHECK((answer.empty() || status_of(answer) == 408));
  CHECK(a.alive());
}

TEST_CASE("a trickled POST body is closed by the body deadline", "[availability]") {
  AgentProcess a({"--python", "/nonexistent/python", "--timeout", "2"});
  int fd = connect_loopback(a.port());
  REQUIRE(fd >= 0);
  std::string head = "POST /v1/challenge HTTP/1.1\r\nHost: " + a.host() +
                     "\r\nContent-Type: application/json\r\nContent-Length: 60000\r\n\r\n{\"nonce\":\"";
  REQUIRE(send(fd, head.data(), head.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(head.size()));
  std::string answer;
  auto closed = time_until_closed(
      fd, 10s, [&] { (void)!send(fd, "0", 1, MSG_NOSIGNAL); }, &answer);
  ::close(fd);
  REQUIRE(closed.has_value());
  CHECK(*closed < 4s);  // --timeout 2 for the body after its head
  CHECK((answer.empty() || status_of(answer) == 408));
}

TEST_CASE("stdin EOF right after the token ends the agent with 0, 200 times in a row", "[availability][stdio]") {
  std::string token_line(64, '0');
  token_line += "\n";
  int exits_0 = 0;
  auto start = AvailClock::now();
  for (int i = 0; i < 200; ++i) {
    auto code = run_agent_for(
        {"serve", "--listen", "127.0.0.1:0", "--stdio-handshake", "--python", "/nonexistent/python"}, token_line, 2s);
    INFO("run " << i);
    REQUIRE(code.has_value());
    REQUIRE(*code == 0);
    ++exits_0;
  }
  CHECK(exits_0 == 200);
  WARN("200 runs took " << std::chrono::duration_cast<std::chrono::milliseconds>(AvailClock::now() - start).count()
                        << " ms");
}

TEST_CASE("SIGTERM right after the handshake ends a --token-file agent with 0, 50 times in a row", "[availability]") {
  TempDir dir;
  auto secret = dir.path() / "secret";
  std::filesystem::create_directory(secret);
  ::chmod(secret.c_str(), 0700);
  auto token_file = secret / "token";
  write_file(token_file, random_token() + "\n");
  ::chmod(token_file.c_str(), 0600);
  for (int i = 0; i < 50; ++i) {
    auto code = signal_after_handshake(
        {"serve", "--listen", "127.0.0.1:0", "--token-file", token_file.string(), "--python", "/nonexistent/python"},
        SIGTERM, 2s);
    INFO("run " << i);
    REQUIRE(code.has_value());
    REQUIRE(*code == 0);
  }
}
