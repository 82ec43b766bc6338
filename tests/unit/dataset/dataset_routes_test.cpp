#include <catch2/catch.hpp>

#include <chrono>
#include <filesystem>
#include <thread>

#include "linux/agent/routes.hpp"
#include "tests/support/test_environment.hpp"

using namespace tfwsl::agent;
namespace fs = std::filesystem;

namespace {

ApiRequest post(std::string path, nlohmann::json body) { return {"POST", std::move(path), {}, std::move(body), {}}; }
ApiRequest get(std::string path) { return {"GET", std::move(path), {}, nullptr, {}}; }

nlohmann::json wait_for_job(const Router& router, const std::string& id) {
  for (int i = 0; i < 3000; ++i) {
    auto r = router.dispatch(get("/v1/jobs/" + id));
    REQUIRE(r.status == 200);
    if (r.body["state"] != "running") return r.body;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  FAIL("the job did not finish");
  return {};
}

}  // namespace

TEST_CASE("POST /v1/datasets runs an import job under the agent's roots", "[routes]") {
  tfwsl::test::TempDir tmp;
  fs::create_directories(tmp.path() / "root" / "src" / "sub");
  fs::create_directories(tmp.path() / "elsewhere");
  tfwsl::test::write_file(tmp.path() / "root" / "src" / "sub" / "a.txt", "alpha");
  AgentContext context;
  context.roots = {tmp.path() / "root"};
  Router router;
  register_dataset_routes(router, context);
  auto src = (tmp.path() / "root" / "src").string();
  auto dst = (tmp.path() / "root" / "dst").string();

  auto started = router.dispatch(post("/v1/datasets", {{"source", src}, {"target", dst}, {"mode", "move"}}));
  REQUIRE(started.status == 202);
  std::string id = started.body["id"];
  CHECK(started.body["location"] == "/v1/jobs/" + id);
  auto done = wait_for_job(router, id);
  CHECK(done["state"] == "succeeded");
  CHECK(done["result"]["totals"]["files_moved"] == 1);
  CHECK(tfwsl::test::read_file(tmp.path() / "root" / "dst" / "sub" / "a.txt") == "alpha");
  CHECK_FALSE(fs::exists(tmp.path() / "root" / "src" / "sub" / "a.txt"));

  auto outside = router.dispatch(post("/v1/datasets", {{"source", src}, {"target", (tmp.path() / "elsewhere").string()}}));
  CHECK(outside.status == 422);
  CHECK(outside.body["error"]["message"].get<std::string>().find("roots") != std::string::npos);
  fs::create_symlink(tmp.path() / "elsewhere", tmp.path() / "root" / "escape");
  auto via_link = router.dispatch(post("/v1/datasets", {{"source", src}, {"target", (tmp.path() / "root" / "escape").string()}}));
  CHECK(via_link.status == 422);  // resolved after following the symlink: outside the roots
  auto inside = router.dispatch(post("/v1/datasets", {{"source", src}, {"target", src + "/in"}}));
  CHECK(inside.status == 400);
  CHECK(router.dispatch(post("/v1/datasets", {{"source", src}})).status == 400);
  CHECK(router.dispatch(post("/v1/datasets", {{"source", src}, {"target", dst}, {"mode", "sync"}})).status == 400);
  CHECK(router.dispatch(post("/v1/datasets", {{"source", src}, {"target", dst}, {"jobs", 0}})).status == 400);
  CHECK(router.dispatch(get("/v1/jobs/999")).status == 404);
  CHECK(router.dispatch(post("/v1/jobs/999/cancel", nlohmann::json::object())).status == 404);
}

TEST_CASE("a second job on a busy target is 409, cancel stops a job", "[routes]") {
  tfwsl::test::TempDir tmp;
  fs::create_directories(tmp.path() / "src");
  std::string big(32 << 20, 'x');
  for (int i = 0; i < 8; ++i) tfwsl::test::write_file(tmp.path() / "src" / ("f" + std::to_string(i)), big);
  AgentContext context;
  context.roots = {tmp.path()};
  Router router;
  register_dataset_routes(router, context);
  auto src = (tmp.path() / "src").string();
  auto dst = (tmp.path() / "dst").string();
  auto first = router.dispatch(post("/v1/datasets", {{"source", src}, {"target", dst}, {"jobs", 1}}));
  REQUIRE(first.status == 202);
  std::string id = first.body["id"];
  auto second = router.dispatch(post("/v1/datasets", {{"source", src}, {"target", dst}}));
  auto state = router.dispatch(get("/v1/jobs/" + id)).body["state"];
  if (state == "running") {  // 256 MiB on one worker: still running on any machine we know
    CHECK(second.status == 409);
    CHECK(router.dispatch(post("/v1/jobs/" + id + "/cancel", nlohmann::json::object())).status == 202);
    CHECK(wait_for_job(router, id)["state"] == "cancelled");
  } else {
    WARN("the first job finished before the second request; conflict not exercised");
  }
}
