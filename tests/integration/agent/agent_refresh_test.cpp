// /v1/checks?refresh=1 against the real agent and a stand-in python whose TensorFlow probe can be
// made slow: one probe run however many ask, cached answers never wait for it, refreshes are rate
// limited, and stdin EOF does not wait for a slow run.
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <future>
#include <thread>

#include "common/agent_api/frame_codec.hpp"
#include "tests/integration/agent/agent_process.hpp"
#include "tests/support/test_environment.hpp"

using namespace tfwsl::test;
using namespace std::chrono_literals;

namespace {

using RefreshClock = std::chrono::steady_clock;

struct SlowProbeAgent {
  TempDir dir;
  std::filesystem::path python = write_fake_python(dir.path());
  AgentProcess agent;
  explicit SlowProbeAgent(std::vector<std::string> extra = {}) : agent(with_python(std::move(extra), python)) {}
  ~SlowProbeAgent() { kill_pids_in(dir.path() / "pids"); }

  static std::vector<std::string> with_python(std::vector<std::string> extra, const std::filesystem::path& python) {
    extra.insert(extra.begin(), {"--python", python.string()});
    return extra;
  }
  void make_slow(int seconds) { write_file(dir.path() / "slow", std::to_string(seconds) + "\n"); }
  int probe_runs() const { return count_lines(dir.path() / "runs"); }
  // Waits (at most `limit`) until the stand-in python has started `n` probe runs: the event the
  // test needs, observed in the file each run appends to, rather than a guess at how long it takes.
  bool wait_for_probe_runs(int n, std::chrono::milliseconds limit = 5s) const {
    auto deadline = RefreshClock::now() + limit;
    while (probe_runs() < n && RefreshClock::now() < deadline) std::this_thread::sleep_for(20ms);
    return probe_runs() >= n;
  }
  std::string get(const std::string& target) const {
    return "GET " + target + " HTTP/1.1\r\nHost: " + agent.host() + "\r\n" + agent.auth() + "Connection: close\r\n\r\n";
  }
  std::string exchange(const std::string& target, std::chrono::milliseconds limit = 30s) const {
    return raw_exchange(agent.port(), get(target), limit);
  }
};

std::chrono::milliseconds since(RefreshClock::time_point start) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(RefreshClock::now() - start);
}

}  // namespace

TEST_CASE("eight concurrent refreshes run the probe once", "[refresh]") {
  SlowProbeAgent s;
  s.make_slow(2);
  std::vector<std::future<std::string>> answers;
  for (int i = 0; i < 8; ++i)
    answers.push_back(std::async(std::launch::async, [&s] { return s.exchange("/v1/checks?refresh=1"); }));
  int ok = 0;
  for (auto& f : answers) ok += status_of(f.get()) == 200;
  CHECK(ok >= 1);
  CHECK(s.probe_runs() == 1);
}

// --refresh-interval 0: no rate limit, so a refresh right after the first run probes again (the
// limit itself is unit-tested on a manual clock: tests/unit/agent/facts_cache_test.cpp).
TEST_CASE("a cached /v1/checks is answered at once while a slow refresh runs", "[refresh]") {
  SlowProbeAgent s({"--refresh-interval", "0"});
  REQUIRE(status_of(s.exchange("/v1/checks")) == 200);  // the first, fast, probe run
  s.make_slow(4);
  auto refresh = std::async(std::launch::async, [&s] { return s.exchange("/v1/checks?refresh=1"); });
  REQUIRE(s.wait_for_probe_runs(2));  // the slow refresh is under way
  for (int i = 0; i < 5; ++i) {
    auto start = RefreshClock::now();
    auto res = s.exchange("/v1/checks", 10s);
    INFO("cached request " << i << " took " << since(start).count() << " ms");
    REQUIRE(status_of(res) == 200);
    CHECK(body_of(res)["cached"] == true);
    CHECK(since(start) < 500ms);
  }
  auto fresh = refresh.get();
  CHECK(status_of(fresh) == 200);
  CHECK(body_of(fresh)["cached"] == false);
}

TEST_CASE("eight slow refreshes leave workers for other requests", "[refresh]") {
  SlowProbeAgent s({"--refresh-interval", "0"});
  REQUIRE(status_of(s.exchange("/v1/checks")) == 200);
  s.make_slow(4);
  std::vector<std::future<std::string>> refreshes;
  for (int i = 0; i < 8; ++i)
    refreshes.push_back(std::async(std::launch::async, [&s] { return s.exchange("/v1/checks?refresh=1"); }));
  REQUIRE(s.wait_for_probe_runs(2));
  auto start = RefreshClock::now();
  auto info = s.exchange("/v1/info", 10s);
  INFO("GET /v1/info took " << since(start).count() << " ms");
  CHECK(status_of(info) == 200);
  CHECK(since(start) < 1s);
  for (auto& f : refreshes) CHECK(status_of(f.get()) == 200);
  CHECK(s.probe_runs() == 2);  // the first run and one refresh
}

TEST_CASE("a refresh younger than the rate limit answers the cached report and says so", "[refresh]") {
  SlowProbeAgent s;
  auto first = s.exchange("/v1/checks?refresh=1");
  REQUIRE(status_of(first) == 200);
  auto again = s.exchange("/v1/checks?refresh=1");
  REQUIRE(status_of(again) == 200);
  auto body = body_of(again);
  CHECK(body["cached"] == true);
  CHECK(body["refresh"] == "rate_limited");
  CHECK(body["probed_at_ms"] == body_of(first)["probed_at_ms"]);
  CHECK(body["age_ms"].is_number());
  CHECK(s.probe_runs() == 1);
}

TEST_CASE("stdin EOF during a slow refresh still ends the agent with 0 at once", "[refresh][stdio]") {
  SlowProbeAgent s;
  s.make_slow(30);
  auto refresh = std::async(std::launch::async, [&s] { return s.exchange("/v1/checks?refresh=1", 40s); });
  REQUIRE(s.wait_for_probe_runs(1));
  REQUIRE(s.probe_runs() == 1);
  auto start = RefreshClock::now();
  auto code = s.agent.close_stdin_and_wait(std::chrono::seconds(10));
  INFO("exit took " << since(start).count() << " ms");
  REQUIRE(code.has_value());
  CHECK(*code == 0);
  CHECK(since(start) < 2s);
  kill_pids_in(s.dir.path() / "pids");
  refresh.get();
}

TEST_CASE("stdin EOF while a stdio frame waits for a slow refresh ends the agent with 0 at once", "[refresh][stdio]") {
  SlowProbeAgent s;
  s.make_slow(30);
  using namespace tfwsl::agent_api;
  auto frame = encode_frame(to_payload(FrameRequest{1, "GET", "/v1/checks?refresh=1", nullptr}));
  REQUIRE(::write(s.agent.stdin_fd(), frame.data(), frame.size()) == static_cast<ssize_t>(frame.size()));
  REQUIRE(s.wait_for_probe_runs(1));
  REQUIRE(s.probe_runs() == 1);
  auto start = RefreshClock::now();
  auto code = s.agent.close_stdin_and_wait(std::chrono::seconds(10));
  INFO("exit took " << since(start).count() << " ms");
  REQUIRE(code.has_value());
  CHECK(*code == 0);
  CHECK(since(start) < 2s);
}

TEST_CASE("past the worker queue the agent answers 503 busy at once, and serves the queue after",
          "[refresh][availability]") {
  SlowProbeAgent s({"--threads", "1"});
  s.make_slow(3);
  auto refresh = std::async(std::launch::async, [&s] { return s.exchange("/v1/checks?refresh=1"); });
  REQUIRE(s.wait_for_probe_runs(1));
  REQUIRE(s.probe_runs() == 1);  // the only worker now waits for the run
  std::vector<int> fds;
  auto request = s.get("/v1/info");
  for (int i = 0; i < 70; ++i) {
    int fd = connect_loopback(s.agent.port());
    REQUIRE(fd >= 0);
    REQUIRE(send(fd, request.data(), request.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(request.size()));
    fds.push_back(fd);
  }
  std::this_thread::sleep_for(500ms);
  int busy = 0;
  std::vector<int> queued;
  char buf[4096];
  for (int fd : fds) {
    auto n = recv(fd, buf, sizeof buf, MSG_DONTWAIT);
    if (n > 0 && status_of(std::string(buf, static_cast<std::size_t>(n))) == 503) {
      ++busy;
      CHECK(body_of(std::string(buf, static_cast<std::size_t>(n)))["error"]["code"] == "busy");
      CHECK(std::string(buf, static_cast<std::size_t>(n)).find("\r\nRetry-After: 1\r\n") != std::string::npos);
      ::close(fd);
    } else {
      queued.push_back(fd);
    }
  }
  CHECK(busy == 70 - 64);
  int served = 0;
  for (int fd : queued) {
    std::string answer;
    auto until = RefreshClock::now() + 10s;
    while (RefreshClock::now() < until) {
      pollfd p{fd, POLLIN, 0};
      if (poll(&p, 1, 100) <= 0) continue;
      auto n = recv(fd, buf, sizeof buf, 0);
      if (n <= 0) break;
      answer.append(buf, static_cast<std::size_t>(n));
    }
    served += status_of(answer) == 200;
    ::close(fd);
  }
  CHECK(served == static_cast<int>(queued.size()));
  CHECK(status_of(refresh.get()) == 200);
}
