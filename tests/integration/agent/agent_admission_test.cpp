// The admission rules of docs/agent-api.md against the real agent: one test per admission rule, each also proving
// "no side effect" (the cached /v1/checks result is not re-probed by a refused ?refresh=1).
#include <unistd.h>

#include <catch2/catch.hpp>
#include <thread>

#include "tests/integration/agent/agent_process.hpp"
#include "tests/support/test_environment.hpp"

using namespace tfwsl::test;

namespace {

// One agent for the admission tests; the checks run fast here (no interpreter, no GPU).
AgentProcess& agent() {
  // No refresh rate limit: a refused ?refresh=1 must be seen not to re-probe, not merely rate-limited.
  static AgentProcess process(
      {"--python", "/nonexistent/python", "--timeout", "2", "--threads", "16", "--refresh-interval", "0"});
  return process;
}

std::string get(const std::string& target, const std::string& headers) {
  return "GET " + target + " HTTP/1.1\r\n" + headers + "Connection: close\r\n\r\n";
}

std::string valid_headers() { return "Host: " + agent().host() + "\r\n" + agent().auth(); }

long long probed_at() {
  auto res = raw_exchange(agent().port(), get("/v1/checks", valid_headers()));
  REQUIRE(status_of(res) == 200);
  return body_of(res)["probed_at_ms"].get<long long>();
}

// Sends a refused ?refresh=1 request and checks both its status and that nothing was re-probed.
void expect_refused(const std::string& request, int status, const std::string& code = {}) {
  auto before = probed_at();
  auto res = raw_exchange(agent().port(), request);
  CHECK(status_of(res) == status);
  if (!code.empty()) CHECK(body_of(res)["error"]["code"] == code);
  CHECK(res.find("Access-Control-Allow") == std::string::npos);
  CHECK(probed_at() == before);
  CHECK(agent().alive());
}

std::string refresh_with(const std::string& headers) { return get("/v1/checks?refresh=1", headers); }

std::string host_line(const std::string& value) { return "Host: " + value + "\r\n"; }

}  // namespace

TEST_CASE("a valid request is served and ?refresh=1 re-probes", "[admission]") {
  auto before = probed_at();
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  auto res = raw_exchange(agent().port(), refresh_with(valid_headers()));
  REQUIRE(status_of(res) == 200);
  CHECK(body_of(res)["probed_at_ms"].get<long long>() > before);  // the side-effect probe can fail
}

TEST_CASE("no token: 401", "[admission]") {
  expect_refused(refresh_with(host_line(agent().host())), 401, "unauthorized");
}

TEST_CASE("wrong token: 401", "[admission]") {
  expect_refused(refresh_with(host_line(agent().host()) + "Authorization: Bearer " + random_token() + "\r\n"), 401);
}

TEST_CASE("a token differing in one byte: 401", "[admission]") {
  auto token = agent().token();
  token.back() = token.back() == '0' ? '1' : '0';
  expect_refused(refresh_with(host_line(agent().host()) + "Authorization: Bearer " + token + "\r\n"), 401);
}

TEST_CASE("a token only in the query string: 401", "[admission]") {
  expect_refused(get("/v1/checks?refresh=1&token=" + agent().token() + "&access_token=" + agent().token(),
                     host_line(agent().host())),
                 401);
}

TEST_CASE("Host evil.example: 403", "[admission]") {
  expect_refused(refresh_with(host_line("evil.example") + agent().auth()), 403, "forbidden_host");
}

TEST_CASE("Host localhost.evil.example: 403", "[admission]") {
  expect_refused(refresh_with(host_line("localhost.evil.example:" + std::to_string(agent().port())) + agent().auth()),
                 403);
}

TEST_CASE("Host 127.0.0.1.nip.io: 403", "[admission]") {
  expect_refused(refresh_with(host_line("127.0.0.1.nip.io:" + std::to_string(agent().port())) + agent().auth()), 403);
}

TEST_CASE("empty Host: 403", "[admission]") { expect_refused(refresh_with("Host: \r\n" + agent().auth()), 403); }

TEST_CASE("missing Host: 403", "[admission]") { expect_refused(refresh_with(agent().auth()), 403); }

TEST_CASE("Host naming another port: 403", "[admission]") {
  expect_refused(refresh_with(host_line("127.0.0.1:" + std::to_string(agent().port() + 1)) + agent().auth()), 403);
  expect_refused(refresh_with(host_line("localhost:" + std::to_string(agent().port() == 1 ? 2 : 1)) + agent().auth()),
                 403);
}

TEST_CASE("Host localhost%00.evil.example: 403 (percent-decoding does not truncate the check)", "[admission]") {
  expect_refused(refresh_with(host_line("localhost%00.evil.example") + agent().auth()), 403);
  expect_refused(
      refresh_with(host_line("localhost:" + std::to_string(agent().port()) + "%00.evil.example") + agent().auth()),
      403);
  expect_refused(
      refresh_with(host_line("localhost:" + std::to_string(agent().port()) + "%0d%0aX-Injected:%201") + agent().auth()),
      403);
}

TEST_CASE("the three loopback Host names are accepted", "[admission]") {
  auto port = std::to_string(agent().port());
  for (const auto& host : {"127.0.0.1:" + port, "localhost:" + port, "[::1]:" + port}) {
    auto res = raw_exchange(agent().port(), get("/v1/info", host_line(host) + agent().auth()));
    CHECK(status_of(res) == 200);
  }
}

TEST_CASE("an Origin header: 403", "[admission]") {
  expect_refused(refresh_with(valid_headers() + "Origin: http://localhost:" + std::to_string(agent().port()) + "\r\n"),
                 403, "forbidden_browser");
  expect_refused(refresh_with(valid_headers() + "Origin: null\r\n"), 403);
  expect_refused(refresh_with(valid_headers() + "Sec-Fetch-Site: cross-site\r\n"), 403);
}

TEST_CASE("a chunked body: 400 before the body is read", "[admission]") {
  auto request = "POST /v1/paths/resolve HTTP/1.1\r\n" + valid_headers() +
                 "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
                 "5\r\n{\"win\r\n";  // never finished: the answer must not wait for it
  auto start = std::chrono::steady_clock::now();
  auto res = raw_exchange(agent().port(), request, std::chrono::seconds(10));
  CHECK(status_of(res) == 400);
  CHECK(body_of(res)["error"]["code"] == "transfer_encoding");
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(5));
  expect_refused(
      "GET /v1/checks?refresh=1 HTTP/1.1\r\n" + valid_headers() + "Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400);
}

TEST_CASE("Content-Length together with Transfer-Encoding: 400", "[admission]") {
  auto body = std::string(R"({"windows_path":"C:\\x"})");
  auto request = "POST /v1/paths/resolve HTTP/1.1\r\n" + valid_headers() +
                 "Content-Type: application/json\r\nContent-Length: " + std::to_string(body.size()) +
                 "\r\nTransfer-Encoding: gzip, chunked\r\n\r\n" + body;
  auto res = raw_exchange(agent().port(), request);
  CHECK(status_of(res) == 400);
  CHECK(body_of(res)["error"]["code"] == "transfer_encoding");
}

TEST_CASE("an oversized body: 413 without reading it", "[admission]") {
  auto request = "POST /v1/paths/resolve HTTP/1.1\r\n" + valid_headers() +
                 "Content-Type: application/json\r\nContent-Length: 104857600\r\n\r\n{\"windows_path\":";
  auto res = raw_exchange(agent().port(), request, std::chrono::seconds(10));
  CHECK(status_of(res) == 413);
  CHECK(body_of(res)["error"]["code"] == "payload_too_large");
}

TEST_CASE("a wrong method: 405", "[admission]") {
  for (const char* method : {"DELETE", "PUT", "PATCH", "OPTIONS"}) {
    auto res = raw_exchange(agent().port(), std::string(method) + " /v1/checks?refresh=1 HTTP/1.1\r\n" +
                                                valid_headers() + "Content-Length: 0\r\nConnection: close\r\n\r\n");
    CHECK(status_of(res) == 405);
    CHECK(res.find("Access-Control-Allow") == std::string::npos);
  }
  expect_refused("POST /v1/checks?refresh=1 HTTP/1.1\r\n" + valid_headers() +
                     "Content-Type: application/json\r\nContent-Length: 2\r\n\r\n{}",
                 405, "method_not_allowed");
}

TEST_CASE("an unknown JSON field: 400, a non-JSON POST: 415, malformed JSON: 400", "[admission]") {
  auto post = [](const std::string& type, const std::string& body) {
    return "POST /v1/paths/resolve HTTP/1.1\r\n" + valid_headers() + "Content-Type: " + type +
           "\r\nContent-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
  };
  auto unknown = raw_exchange(agent().port(), post("application/json", R"({"windows_path":"C:\\x","follow":true})"));
  CHECK(status_of(unknown) == 400);
  CHECK(body_of(unknown)["error"]["code"] == "unknown_field");
  CHECK(body_of(unknown)["error"]["message"].get<std::string>().find("follow") != std::string::npos);
  CHECK(status_of(raw_exchange(agent().port(), post("text/plain", R"({"windows_path":"C:\\x"})"))) == 415);
  CHECK(status_of(raw_exchange(agent().port(), post("application/x-www-form-urlencoded", "windows_path=C:"))) == 415);
  auto malformed = raw_exchange(agent().port(), post("application/json", R"({"windows_path":)"));
  CHECK(status_of(malformed) == 400);
  CHECK(body_of(malformed)["error"]["code"] == "bad_request");
}

TEST_CASE("a client-sent REMOTE_ADDR changes nothing", "[admission]") {
  expect_refused(refresh_with(host_line(agent().host()) + "REMOTE_ADDR: 127.0.0.1\r\nLOCAL_ADDR: 127.0.0.1\r\n"), 401);
}

TEST_CASE("the process survives a 1 MiB request line, 10,000 headers and 100 idle connections", "[survival]") {
  auto huge_line = "GET /v1/info?" + std::string(1 << 20, 'a') + " HTTP/1.1\r\n" + valid_headers() + "\r\n";
  auto r1 = raw_exchange(agent().port(), huge_line, std::chrono::seconds(10));
  CHECK((r1.empty() || status_of(r1) >= 400));
  CHECK(agent().alive());

  std::string many = "GET /v1/info HTTP/1.1\r\n" + valid_headers();
  for (int i = 0; i < 10000; ++i) many += "X-H" + std::to_string(i) + ": v\r\n";
  many += "\r\n";
  auto r2 = raw_exchange(agent().port(), many, std::chrono::seconds(10));
  CHECK((r2.empty() || status_of(r2) >= 400));
  CHECK(agent().alive());

  std::vector<int> idle;
  for (int i = 0; i < 100; ++i) {
    int fd = connect_loopback(agent().port());
    if (fd >= 0) idle.push_back(fd);
  }
  CHECK(idle.size() == 100);
  // The idle connections hold workers until the idle timeout (2 s here); the valid request waits
  // its turn and is answered.
  auto res = raw_exchange(agent().port(), get("/v1/info", valid_headers()), std::chrono::seconds(90));
  CHECK(status_of(res) == 200);
  for (int fd : idle) ::close(fd);
  CHECK(agent().alive());
  CHECK(status_of(raw_exchange(agent().port(), get("/v1/info", valid_headers()))) == 200);
}

TEST_CASE("the token is neither on the command line nor in the log", "[token]") {
  auto cmdline = read_file("/proc/" + std::to_string(agent().pid()) + "/cmdline");
  CHECK_FALSE(cmdline.empty());
  CHECK(cmdline.find(agent().token()) == std::string::npos);
  // The agent runs at --log-level debug; every request above went through its log.
  auto log = read_file(agent().log_path());
  CHECK_FALSE(log.empty());
  CHECK(log.find(agent().token()) == std::string::npos);
  CHECK(log.find(agent().token().substr(0, 16)) == std::string::npos);
}
