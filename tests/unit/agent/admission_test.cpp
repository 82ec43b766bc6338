// Admission and routing as pure functions (the integration tests prove the same rules against the
// real server and its raw sockets).
#include "linux/agent/admission.hpp"

#include <catch2/catch.hpp>

#include "linux/agent/path_resolver.hpp"
#include "linux/agent/router.hpp"
#include "linux/agent/stdio_channel.hpp"
#include "linux/agent/strict_json.hpp"

using namespace tfwsl;
using namespace tfwsl::agent;

namespace {

const std::string k_token(64, 'a');

struct Fixture {
  Router router;
  int calls = 0;
  AdmissionPolicy policy{41234, k_token, 1024};
  Fixture() {
    router.add({"GET", "/v1/info", {}, [this](const ApiRequest&) {
                  ++calls;
                  return ok({{"x", 1}});
                }});
    router.add({"POST", "/v1/paths/resolve", {"windows_path"}, [this](const ApiRequest& r) {
                  ++calls;
                  return ok(r.body);
                }});
    router.add({"POST",
                "/v1/challenge",
                {"nonce"},
                [this](const ApiRequest&) {
                  ++calls;
                  return ok({});
                },
                false});
    router.add({"GET", "/v1/jobs/{id}", {}, [this](const ApiRequest& r) {
                  ++calls;
                  return ok({{"id", r.params.at("id")}});
                }});
  }
  RequestHead head(std::string method, std::string target, std::vector<std::pair<std::string, std::string>> extra = {},
                   bool with_auth = true, bool with_host = true) {
    RequestHead h{std::move(method), std::move(target), {}};
    if (with_host) h.headers.push_back({"Host", "127.0.0.1:41234"});
    if (with_auth) h.headers.push_back({"Authorization", "Bearer " + k_token});
    for (auto& e : extra) h.headers.push_back(e);
    return h;
  }
  int status(const RequestHead& h) {
    auto r = admit(h, policy, router);
    return r ? r->status : 0;
  }
};

}  // namespace

TEST_CASE("the Host rule accepts exactly our three names with our port", "[admission]") {
  CHECK(is_allowed_host("127.0.0.1:41234", 41234));
  CHECK(is_allowed_host("localhost:41234", 41234));
  CHECK(is_allowed_host("[::1]:41234", 41234));
  for (const char* bad :
       {"evil.example", "localhost.evil.example", "127.0.0.1.nip.io", "", ":41234", "localhost", "127.0.0.1:41235",
        "localhost:41234.evil", "evil.localhost.example:41234", "192.168.1.10:41234"})
    CHECK_FALSE(is_allowed_host(bad, 41234));
  CHECK_FALSE(is_allowed_host(std::string("localhost\0.evil.example", 23), 41234));
  CHECK_FALSE(is_allowed_host(std::string("localhost:41234\0", 16), 41234));
  CHECK_FALSE(is_allowed_host("localhost:41234\r\nX: 1", 41234));
}

TEST_CASE("admission order and statuses", "[admission]") {
  Fixture f;
  CHECK(f.status(f.head("GET", "/v1/info")) == 0);
  CHECK(f.status(f.head("GET", "/v1/info", {}, false)) == 401);
  CHECK(f.status(f.head("GET", "/v1/info?token=" + k_token, {}, false)) == 401);
  auto wrong = f.head("GET", "/v1/info", {}, false);
  auto one_off = k_token;
  one_off[63] = 'b';
  wrong.headers.push_back({"Authorization", "Bearer " + one_off});
  CHECK(f.status(wrong) == 401);
  CHECK(f.status(f.head("GET", "/v1/info", {}, true, false)) == 403);
  CHECK(f.status(f.head("GET", "/v1/info", {{"Host", "localhost:41234"}})) == 403);  // two Host headers
  CHECK(f.status(f.head("GET", "/v1/info", {{"Origin", "null"}})) == 403);
  CHECK(f.status(f.head("GET", "/v1/info", {{"sec-fetch-mode", "cors"}})) == 403);
  CHECK(f.status(f.head("GET", "/v1/info", {{"Transfer-Encoding", "chunked"}})) == 400);
  CHECK(f.status(f.head("DELETE", "/v1/info")) == 405);
  CHECK(f.status(f.head("GET", "/v1/nope")) == 404);
  CHECK(f.status(f.head("GET", "/v1/nope", {}, false)) == 401);  // no route discovery without the token
  CHECK(f.status(f.head("POST", "/v1/paths/resolve",
                        {{"Content-Type", "application/json"}, {"Content-Length", "2000"}})) == 413);
  CHECK(f.status(f.head("POST", "/v1/paths/resolve", {{"Content-Type", "text/plain"}, {"Content-Length", "2"}})) ==
        415);
  CHECK(f.status(f.head(
            "POST", "/v1/paths/resolve",
            {{"Content-Type", "application/json"}, {"Content-Length", "2"}, {"Content-Encoding", "gzip"}})) == 415);
  CHECK(f.status(f.head("POST", "/v1/paths/resolve",
                        {{"Content-Type", "application/json"}, {"Content-Length", "2"}, {"Content-Length", "2"}})) ==
        400);
  CHECK(f.status(f.head("POST", "/v1/paths/resolve",
                        {{"Content-Type", "application/json; charset=utf-8"}, {"Content-Length", "2"}})) == 0);
  CHECK(f.status(f.head("POST", "/v1/challenge", {{"Content-Type", "application/json"}, {"Content-Length", "2"}},
                        false)) == 0);
  CHECK(f.status(f.head("GET", "/v1/info", {{"Content-Length", "5"}})) == 400);
  CHECK(f.calls == 0);  // admission never runs a handler
}

TEST_CASE("the router answers 404, 405, unknown fields and path parameters", "[router]") {
  Fixture f;
  ApiRequest r{"POST", "/v1/paths/resolve", {}, {{"windows_path", "C:\\x"}, {"extra", 1}}, {}};
  auto res = f.router.dispatch(r);
  CHECK(res.status == 400);
  CHECK(res.body["error"]["code"] == "unknown_field");
  CHECK(f.calls == 0);
  r.body.erase("extra");
  CHECK(f.router.dispatch(r).status == 200);
  CHECK(f.router.dispatch({"GET", "/v1/jobs/17", {}, nullptr, {}}).body["id"] == "17");
  CHECK(f.router.dispatch({"GET", "/v1/jobs/", {}, nullptr, {}}).status == 404);
  CHECK(f.router.dispatch({"PUT", "/v1/info", {}, nullptr, {}}).status == 405);
  CHECK(f.router.dispatch({"POST", "/v1/paths/resolve", {}, nlohmann::json::array(), {}}).status == 400);
}

TEST_CASE("a throwing handler becomes a 500 JSON error", "[router]") {
  Router router;
  router.add({"GET", "/v1/boom", {}, [](const ApiRequest&) -> ApiResponse { throw std::runtime_error("boom"); }});
  auto res = router.dispatch({"GET", "/v1/boom", {}, nullptr, {}});
  CHECK(res.status == 500);
  CHECK(res.body["error"]["code"] == "internal");
}

TEST_CASE("split_target decodes the query", "[router]") {
  std::string path;
  std::map<std::string, std::string> query;
  split_target("/v1/checks?refresh=1&x=a%20b&flag", path, query);
  CHECK(path == "/v1/checks");
  CHECK(query["refresh"] == "1");
  CHECK(query["x"] == "a b");
  CHECK(query.count("flag") == 1);
}

TEST_CASE("Windows paths resolve through the distro's mounts", "[paths]") {
  PathContext c{"/mnt/", "Ubuntu-22.04", {{"/", "ext4"}, {"/mnt/c", "9p"}, {"/mnt/d", "9p"}}};
  auto r = resolve_windows_path("D:\\data\\imagenet", c);
  REQUIRE(r);
  CHECK(r->linux_path == "/mnt/d/data/imagenet");
  CHECK(r->slow_mount);
  CHECK(resolve_windows_path("c:/Users/me/", c)->linux_path == "/mnt/c/Users/me");
  CHECK(resolve_windows_path("\\\\?\\C:\\long\\path", c)->linux_path == "/mnt/c/long/path");
  auto wsl = resolve_windows_path("\\\\wsl$\\Ubuntu-22.04\\home\\me\\data", c);
  REQUIRE(wsl);
  CHECK(wsl->linux_path == "/home/me/data");
  CHECK_FALSE(wsl->slow_mount);
  CHECK(resolve_windows_path("\\\\wsl.localhost\\ubuntu-22.04\\srv", c)->linux_path == "/srv");
  auto other = resolve_windows_path("\\\\wsl$\\Debian\\home", c);
  REQUIRE_FALSE(other);
  CHECK(other.error().message.find("Debian") != std::string::npos);
  auto share = resolve_windows_path("\\\\fileserver\\datasets\\x", c);
  REQUIRE_FALSE(share);
  CHECK(share.error().message.find("not mapped") != std::string::npos);
  auto unmounted = resolve_windows_path("Z:\\x", c);
  REQUIRE_FALSE(unmounted);
  CHECK(unmounted.error().message.find("Z: is not mounted") != std::string::npos);
  CHECK(resolve_windows_path("C:relative", c).error().code == ErrorCode::invalid_input);
  CHECK(resolve_windows_path("data\\x", c).error().code == ErrorCode::invalid_input);
  CHECK(resolve_windows_path("C:\\a\\..\\..\\etc", c).error().code == ErrorCode::invalid_input);
  PathContext custom{"/windir/", "", {}};
  CHECK(resolve_windows_path("E:\\x", custom)->linux_path == "/windir/e/x");
}

TEST_CASE("a header name that is not an RFC 9110 token is refused first, with 400", "[admission]") {
  Fixture f;
  for (const char* name : {"Host ", "Transfer-Encoding ", "Host\t", " Host", "X Y", "X(y)", "X:y", "", "X\"y", "X\x7f",
                           "X\xc3\xa9", "X\r", "X\n"}) {
    INFO("name '" << name << "'");
    auto h = f.head("GET", "/v1/info", {{name, "1"}});
    auto r = admit(h, f.policy, f.router);
    REQUIRE(r);
    CHECK(r->status == 400);
    CHECK(r->body["error"]["code"] == "bad_request");
  }
  // Even where every other rule would refuse it (no token, no Host): the framing answer comes first.
  CHECK(f.status(f.head("GET", "/v1/info", {{"Transfer-Encoding ", "chunked"}}, false, false)) == 400);
  for (const char* name : {"X-Ok", "x_ok", "X.Ok", "!#$%&'*+-.^_`|~09az"})
    CHECK(f.status(f.head("GET", "/v1/info", {{name, "1"}})) == 0);
  CHECK(f.calls == 0);
}

TEST_CASE("JSON bodies with a repeated key are refused, on both transports", "[admission][json]") {
  CHECK(parse_json_strict(R"({"a":1,"b":{"a":2},"c":[{"a":3},{"a":4}]})"));
  auto dup = parse_json_strict(R"({"a":1,"a":2})");
  REQUIRE_FALSE(dup);
  CHECK(dup.error().message.find("'a'") != std::string::npos);
  CHECK_FALSE(parse_json_strict(R"({"o":{"k":1,"x":[],"k":2}})"));
  CHECK_FALSE(parse_json_strict(R"([{"k":1},{"k":1,"k":1}])"));
  CHECK_FALSE(parse_json_strict(R"({"a":1)"));
  CHECK_FALSE(parse_json_strict(std::string(5000, '[')));  // deep nesting: refused, not a crash

  Fixture f;
  bool fatal = true;
  auto answer = answer_frame_payload(
      f.router,
      R"({"id":7,"method":"POST","path":"/v1/paths/resolve","body":{"windows_path":"C:\\x","windows_path":"D:\\y"}})",
      fatal);
  CHECK_FALSE(fatal);
  auto reply = nlohmann::json::parse(answer);
  CHECK(reply["id"] == 7);
  CHECK(reply["status"] == 400);
  CHECK(f.calls == 0);
}
