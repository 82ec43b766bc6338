// HTTP strictness against the real agent: header names are tokens (RFC 9112 section 5.1: no
// whitespace before the colon), lines end in CRLF, JSON bodies have no duplicate keys; and the log
// file that records request paths is private to the user.
#include <sys/stat.h>

#include <catch2/catch.hpp>

#include "tests/integration/agent/agent_process.hpp"
#include "tests/support/test_environment.hpp"

using namespace tfwsl::test;

namespace {

AgentProcess& strict_agent() {
  static AgentProcess process({"--python", "/nonexistent/python", "--timeout", "2"});
  return process;
}

std::string strict_headers() { return "Host: " + strict_agent().host() + "\r\n" + strict_agent().auth(); }

std::string get_info_with(const std::string& extra) {
  return "GET /v1/info HTTP/1.1\r\n" + strict_headers() + extra + "Connection: close\r\n\r\n";
}

std::string post(const std::string& target, const std::string& body, bool with_auth = true) {
  return "POST " + target + " HTTP/1.1\r\nHost: " + strict_agent().host() + "\r\n" +
         (with_auth ? strict_agent().auth() : "") +
         "Content-Type: application/json\r\nContent-Length: " + std::to_string(body.size()) +
         "\r\nConnection: close\r\n\r\n" + body;
}

}  // namespace

TEST_CASE("a well-formed request is still served", "[strict]") {
  CHECK(status_of(raw_exchange(strict_agent().port(), get_info_with(""))) == 200);
}

TEST_CASE("whitespace between a header name and its colon: 400", "[strict]") {
  for (const char* line : {"Host : evil.example\r\n", "Transfer-Encoding : chunked\r\n", "Host\t: evil.example\r\n",
                           "X-Extra\t: 1\r\n", "X Extra: 1\r\n", " X-Folded: 1\r\n", "Authorization : Bearer x\r\n"}) {
    INFO(line);
    auto res = raw_exchange(strict_agent().port(), get_info_with(line));
    CHECK(status_of(res) == 400);
    CHECK(body_of(res)["error"]["code"] == "bad_request");
  }
}

TEST_CASE("other bytes that are not a token in a header name: 400", "[strict]") {
  for (const std::string& line : {std::string("X(y): 1\r\n"), std::string("X\"y: 1\r\n"), std::string("X\x7fy: 1\r\n"),
                                  std::string("X\xc3\xa9: 1\r\n"), std::string("X/y: 1\r\n")}) {
    INFO(line);
    CHECK(status_of(raw_exchange(strict_agent().port(), get_info_with(line))) == 400);
  }
}

TEST_CASE("a header line ended by a bare LF or holding a bare CR: 400", "[strict]") {
  CHECK(status_of(raw_exchange(strict_agent().port(), get_info_with("X-Hidden: 1\nHost: evil.example\r\n"))) == 400);
  CHECK(status_of(raw_exchange(strict_agent().port(), get_info_with("X-Hidden: 1\rHost: evil.example\r\n"))) == 400);
  CHECK(status_of(raw_exchange(strict_agent().port(), "GET /v1/info HTTP/1.1\n" + strict_headers() + "\r\n")) == 400);
}

TEST_CASE("duplicate keys in a JSON body: 400", "[strict]") {
  auto dup = raw_exchange(strict_agent().port(),
                          post("/v1/paths/resolve", R"({"windows_path":"C:\\x","windows_path":"D:\\y"})"));
  CHECK(status_of(dup) == 400);
  CHECK(body_of(dup)["error"]["code"] == "bad_request");
  CHECK(body_of(dup)["error"]["message"].get<std::string>().find("windows_path") != std::string::npos);
  auto nonce = random_token();
  auto challenge =
      raw_exchange(strict_agent().port(),
                   post("/v1/challenge", R"({"nonce":")" + nonce + R"(","nonce":")" + random_token() + "\"}", false));
  CHECK(status_of(challenge) == 400);
  // Nested objects are checked too, and the same key in two different objects is not a duplicate.
  auto nested =
      raw_exchange(strict_agent().port(), post("/v1/paths/resolve", R"({"windows_path":"C:\\x","o":{"a":1,"a":2}})"));
  CHECK(status_of(nested) == 400);
  CHECK(body_of(nested)["error"]["code"] == "bad_request");
  auto siblings = raw_exchange(strict_agent().port(),
                               post("/v1/paths/resolve", R"({"windows_path":"C:\\x","o":{"a":1},"p":{"a":1}})"));
  CHECK(body_of(siblings)["error"]["code"] == "unknown_field");  // parsed fine, then refused by the route
}

TEST_CASE("the log file of --log-file is created with mode 0600, an existing one tightened", "[strict][log]") {
  TempDir dir;
  auto log = dir.path() / "agent.log";
  auto [code, out] = run_agent(
      {"--log-file", log.string(), "--log-level", "info", "check", "--json", "--python", "/nonexistent/python"}, "");
  CHECK(code == 2);
  struct stat st {};
  REQUIRE(::stat(log.c_str(), &st) == 0);
  CHECK((st.st_mode & 07777) == 0600);

  auto existing = dir.path() / "existing.log";
  write_file(existing, "old line\n");
  ::chmod(existing.c_str(), 0644);
  run_agent({"--log-file", existing.string(), "check", "--json", "--python", "/nonexistent/python"}, "");
  REQUIRE(::stat(existing.c_str(), &st) == 0);
  CHECK((st.st_mode & 07777) == 0600);
}

TEST_CASE("a --log-file path that cannot be created is refused before serving", "[strict][log]") {
  TempDir dir;
  write_file(dir.path() / "file", "a regular file, not a directory\n");
  auto [code, out] =
      run_agent({"--log-file", (dir.path() / "file" / "agent.log").string(), "serve", "--stdio-handshake"},
                std::string(64, '0') + "\n");
  CHECK(code == 2);
  CHECK(out.find("cannot write the log file") != std::string::npos);
  CHECK(out.find("is not a folder") != std::string::npos);  // the reason
  CHECK(out.find("\"port\"") == std::string::npos);         // no handshake line: it never served
}
