// The connection gate's request-head scanner: where the head ends, how much body to wait for, and
// the framing it refuses before any worker sees the request.
#include "linux/agent/request_head.hpp"

#include <catch2/catch.hpp>

using namespace tfwsl::agent;

namespace {

const std::string k_head = "POST /v1/challenge HTTP/1.1\r\nHost: 127.0.0.1:1\r\nContent-Length: 12\r\n\r\n";

RequestHeadScanner scanned(const std::string& bytes, bool byte_by_byte = false) {
  RequestHeadScanner s(1024, 100);
  if (!byte_by_byte) {
    s.scan(bytes);
    return s;
  }
  for (std::size_t n = 1; n <= bytes.size(); ++n) s.scan(std::string_view(bytes).substr(0, n));
  return s;
}

}  // namespace

TEST_CASE("the head ends at the first blank line, however the bytes arrive", "[gate]") {
  for (bool trickled : {false, true}) {
    auto s = scanned(k_head + "{\"nonce\":\"\"}", trickled);
    CHECK(s.state() == HeadState::complete);
    CHECK(s.head_size() == k_head.size());
    CHECK(s.body_size() == 12);
  }
  CHECK(scanned(k_head.substr(0, k_head.size() - 1)).state() == HeadState::incomplete);
  CHECK(scanned("GET / HTTP/1.1\r\n\r\n").body_size() == 0);
}

TEST_CASE("a bare LF or a bare CR makes the head malformed", "[gate]") {
  for (bool trickled : {false, true}) {
    CHECK(scanned("GET / HTTP/1.1\nHost: x\r\n\r\n", trickled).state() == HeadState::malformed);
    CHECK(scanned("GET / HTTP/1.1\r\nA: 1\nHost: x\r\n\r\n", trickled).state() == HeadState::malformed);
    CHECK(scanned("GET / HTTP/1.1\r\nA: 1\rHost: x\r\n\r\n", trickled).state() == HeadState::malformed);
    CHECK(scanned("\n\n", trickled).state() == HeadState::malformed);
  }
  CHECK(scanned("GET / HTTP/1.1\r").state() == HeadState::incomplete);  // the LF may still come
}

TEST_CASE("no blank line within the limit: too large", "[gate]") {
  CHECK(scanned("GET /" + std::string(2000, 'a')).state() == HeadState::too_large);
  CHECK(scanned("GET /" + std::string(2000, 'a'), true).state() == HeadState::too_large);
  CHECK(scanned("GET /" + std::string(1000, 'a')).state() == HeadState::incomplete);
}

TEST_CASE("only one plain, numeric Content-Length under the cap is waited for", "[gate]") {
  auto body_of = [](const std::string& headers) {
    return scanned("POST / HTTP/1.1\r\n" + headers + "\r\n").body_size();
  };
  CHECK(body_of("content-LENGTH:  7 \r\n") == 7);
  CHECK(body_of("Content-Length: 7\r\nContent-Length: 7\r\n") == 0);
  CHECK(body_of("Content-Length: 7x\r\n") == 0);
  CHECK(body_of("Content-Length: -7\r\n") == 0);
  CHECK(body_of("Content-Length: 101\r\n") == 0);  // over the cap: admission answers 413
  CHECK(body_of("Content-Length: 99999999999999999999999\r\n") == 0);
  CHECK(body_of("Content-Length: 7\r\nTransfer-Encoding: chunked\r\n") == 0);
  CHECK(body_of("Content-Length : 7\r\n") == 0);  // not the header's name: admission answers 400
}
