// The wire contract shared with the CLI: error table, token rules, SHA-256/HMAC vectors, the
// challenge proof, the handshake line and the stdio frame codec.
#include <catch2/catch.hpp>

#include "common/agent_api/api_error.hpp"
#include "common/agent_api/challenge.hpp"
#include "common/agent_api/frame_codec.hpp"
#include "common/agent_api/handshake.hpp"
#include "common/agent_api/json_wire.hpp"
#include "common/agent_api/sha256.hpp"
#include "common/agent_api/token.hpp"

using namespace tfwsl::agent_api;

TEST_CASE("error table gives status, code and a JSON body", "[agent_api]") {
  CHECK(http_status(ApiError::unauthorized) == 401);
  CHECK(http_status(ApiError::forbidden_host) == 403);
  CHECK(http_status(ApiError::payload_too_large) == 413);
  CHECK(http_status(ApiError::unsupported_media_type) == 415);
  CHECK(http_status(ApiError::method_not_allowed) == 405);
  CHECK(http_status(ApiError::internal) == 500);
  CHECK(http_status(ApiError::timeout) == 504);
  auto body = error_body(ApiError::unknown_field, "field 'x' is not known");
  CHECK(body["error"]["code"] == "unknown_field");
  CHECK(body["error"]["message"] == "field 'x' is not known");
  CHECK(error_body(ApiError::not_found)["error"]["message"] == "no such route");
  CHECK(parse_code_name("forbidden_browser") == ApiError::forbidden_browser);
  CHECK_FALSE(parse_code_name("nope").has_value());
}

TEST_CASE("SHA-256 and HMAC-SHA-256 match the published vectors", "[agent_api]") {
  CHECK(to_hex(sha256("")) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(to_hex(sha256("abc")) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(to_hex(sha256("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")) ==
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  CHECK(to_hex(sha256(std::string(1000000, 'a'))) ==
        "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
  // RFC 4231 test cases 1 and 2 and 6 (key longer than a block).
  CHECK(to_hex(hmac_sha256(std::string(20, '\x0b'), "Hi There")) ==
        "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7");
  CHECK(to_hex(hmac_sha256("Jefe", "what do ya want for nothing?")) ==
        "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
  CHECK(to_hex(hmac_sha256(std::string(131, '\xaa'), "Test Using Larger Than Block-Size Key - Hash Key First")) ==
        "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54");
}

TEST_CASE("tokens: shape, bearer parsing and constant-time compare", "[agent_api]") {
  std::string token(64, 'a');
  CHECK(is_valid_token(token));
  CHECK_FALSE(is_valid_token(std::string(31, 'a')));
  CHECK_FALSE(is_valid_token(std::string(63, 'a') + "g"));
  CHECK(bearer_token("Bearer " + token) == token);
  CHECK(bearer_token("bearer " + token).empty());
  CHECK(bearer_token("Bearer ").empty());
  CHECK(bearer_token("Bearer a b").empty());
  CHECK(constant_time_equal(token, token));
  std::string one_off = token;
  one_off[40] = 'b';
  CHECK_FALSE(constant_time_equal(token, one_off));
  CHECK_FALSE(constant_time_equal(token, token.substr(0, 63)));
  CHECK_FALSE(constant_time_equal(token + "a", token));
  CHECK_FALSE(constant_time_equal("", token));
  CHECK(constant_time_equal("", ""));
}

TEST_CASE("challenge proof binds token and nonce", "[agent_api]") {
  std::string token(64, 'c'), nonce(64, '1');
  auto proof = challenge_proof(token, nonce);
  CHECK(proof.size() == 64);
  CHECK(verify_challenge_proof(token, nonce, proof));
  CHECK_FALSE(verify_challenge_proof(std::string(64, 'd'), nonce, proof));
  CHECK_FALSE(verify_challenge_proof(token, std::string(64, '2'), proof));
  CHECK(is_valid_nonce(nonce));
  CHECK_FALSE(is_valid_nonce("abc"));
  CHECK_FALSE(is_valid_nonce(std::string(64, 'z')));
}

TEST_CASE("handshake line round-trips and the token line is checked", "[agent_api]") {
  HandshakeLine line{"0.1.0", 1, 4242, 41234};
  auto text = format_handshake_line(line);
  CHECK(text == R"({"agent":"0.1.0","api":1,"pid":4242,"port":41234})");
  auto back = parse_handshake_line(text + "\r\n");
  REQUIRE(back);
  CHECK(back->port == 41234);
  CHECK(back->pid == 4242);
  CHECK_FALSE(parse_handshake_line("hello"));
  CHECK_FALSE(parse_handshake_line(R"({"agent":"x","api":1,"pid":1})"));
  auto token = parse_token_line(std::string(32, 'F') + "\r\n");
  REQUIRE(token);
  CHECK(*token == std::string(32, 'F'));
  auto bad = parse_token_line("secret-not-hex-secret-not-hex-secret");
  REQUIRE_FALSE(bad);
  CHECK(bad.error().message.find("secret") == std::string::npos);
}

TEST_CASE("frame decoder reassembles split frames and refuses garbage", "[agent_api]") {
  FrameDecoder decoder(1024);
  auto wire = encode_frame("{\"a\":1}") + encode_frame("{\"b\":\n2}");
  for (char c : wire) decoder.feed(std::string_view(&c, 1));
  auto first = decoder.next();
  REQUIRE(first);
  REQUIRE(first->has_value());
  CHECK(**first == "{\"a\":1}");
  auto second = decoder.next();
  REQUIRE(second);
  REQUIRE(second->has_value());
  CHECK(**second == "{\"b\":\n2}");
  auto none = decoder.next();
  REQUIRE(none);
  CHECK_FALSE(none->has_value());

  FrameDecoder garbage(1024);
  garbage.feed("GET / HTTP/1.1\r\n");
  CHECK_FALSE(garbage.next());
  FrameDecoder big(10);
  big.feed("TFWSL1 11\n");
  CHECK_FALSE(big.next());
  FrameDecoder crlf(100);
  crlf.feed("TFWSL1 2\r\n{}");
  auto ok = crlf.next();
  REQUIRE(ok);
  REQUIRE(ok->has_value());
  CHECK(**ok == "{}");
}

TEST_CASE("frame requests are parsed strictly", "[agent_api]") {
  FrameRequest request{7, "POST", "/v1/paths/resolve", {{"windows_path", "C:\\x"}}};
  auto parsed = parse_frame_request(to_payload(request));
  REQUIRE(parsed);
  CHECK(parsed->id == 7);
  CHECK(parsed->body["windows_path"] == "C:\\x");
  CHECK_FALSE(parse_frame_request(R"({"id":1,"method":"GET","path":"/v1/info","extra":1})"));
  CHECK_FALSE(parse_frame_request(R"({"id":-1,"method":"GET","path":"/v1/info"})"));
  CHECK_FALSE(parse_frame_request("[]"));
  auto response = parse_frame_response(to_payload(FrameResponse{7, 404, {{"error", 1}}}));
  REQUIRE(response);
  CHECK(response->status == 404);
}

TEST_CASE("a body with bytes that are not UTF-8 still goes over the wire, as U+FFFD", "[agent_api]") {
  const nlohmann::json body{{"stderr_text", std::string("cut inside \xE2\x82")}, {"ok", "caf\xC3\xA9"}};
  CHECK_THROWS(body.dump());  // why wire_text exists
  std::string text;
  REQUIRE_NOTHROW(text = wire_text(body));
  auto back = nlohmann::json::parse(text);
  CHECK(back["stderr_text"] == "cut inside \xEF\xBF\xBD");
  CHECK(back["ok"] == "caf\xC3\xA9");
  FrameResponse response{7, 200, body};
  std::string payload;
  REQUIRE_NOTHROW(payload = to_payload(response));
  CHECK(nlohmann::json::parse(payload)["body"]["stderr_text"] == "cut inside \xEF\xBF\xBD");
}
