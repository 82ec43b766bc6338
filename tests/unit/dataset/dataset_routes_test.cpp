#include "linux/agent/dataset_routes.hpp"

#include <catch2/catch.hpp>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <mutex>
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

// An import that runs until the test releases it (or it is cancelled): the test decides when a job
// ends, so "still running" is never a race with the machine's speed.
class RouteGate {
 public:
  tfwsl::dataset::ImportRunner runner() {
    return [this](const tfwsl::dataset::ImportOptions&, tfwsl::dataset::ProgressTracker&,
                  const tfwsl::dataset::CancelToken& cancel) -> tfwsl::Result<tfwsl::dataset::ImportReport> {
      std::unique_lock lock(m_mutex);
      while (!m_released && !cancel.cancelled()) m_changed.wait_for(lock, std::chrono::milliseconds(5));
      if (cancel.cancelled()) return tfwsl::make_error(tfwsl::ErrorCode::cancelled, "cancelled");
      return tfwsl::dataset::ImportReport{};
    };
  }
  void release() {
    std::lock_guard lock(m_mutex);
    m_released = true;
    m_changed.notify_all();
  }

 private:
  std::mutex m_mutex;
  std::condition_variable m_changed;
  bool m_released = false;
};

std::string message_of(const ApiResponse& r) {
  auto found = r.body.find("error");
  if (found == r.body.end() || !found->contains("message")) return "(no error in " + r.body.dump() + ")";
  return (*found)["message"].get<std::string>();
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

  auto outside =
      router.dispatch(post("/v1/datasets", {{"source", src}, {"target", (tmp.path() / "elsewhere").string()}}));
  CHECK(outside.status == 422);
  CHECK(outside.body["error"]["message"].get<std::string>().find("roots") != std::string::npos);
  fs::create_symlink(tmp.path() / "elsewhere", tmp.path() / "root" / "escape");
  auto via_link =
      router.dispatch(post("/v1/datasets", {{"source", src}, {"target", (tmp.path() / "root" / "escape").string()}}));
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
  AgentContext context;
  context.roots = {tmp.path()};
  RouteGate gate;
  Router router;
  register_dataset_routes(router, context, gate.runner());
  auto src = (tmp.path() / "src").string();
  auto dst = (tmp.path() / "dst").string();
  auto first = router.dispatch(post("/v1/datasets", {{"source", src}, {"target", dst}, {"jobs", 1}}));
  REQUIRE(first.status == 202);
  std::string id = first.body["id"];
  CHECK(first.body["state"] == "running");  // held by the gate until cancelled
  auto second = router.dispatch(post("/v1/datasets", {{"source", src}, {"target", dst + "/."}}));
  CHECK(second.status == 409);
  CHECK_THAT(message_of(second), Catch::Contains("job " + id) && Catch::Contains(dst + "/."));
  CHECK(router.dispatch(post("/v1/jobs/" + id + "/cancel", nlohmann::json::object())).status == 202);
  CHECK(wait_for_job(router, id)["state"] == "cancelled");
  gate.release();
  CHECK(router.dispatch(post("/v1/datasets", {{"source", src}, {"target", dst}})).status == 202);
}

TEST_CASE("past max_running a start is 429 with the reason and Retry-After", "[routes][job_limits]") {
  tfwsl::test::TempDir tmp;
  fs::create_directories(tmp.path() / "src");
  AgentContext context;
  context.roots = {tmp.path()};
  context.import_limits.max_running = 2;
  RouteGate gate;
  Router router;
  register_dataset_routes(router, context, gate.runner());
  auto src = (tmp.path() / "src").string();
  auto to = [&](const std::string& name) { return (tmp.path() / name).string(); };
  REQUIRE(router.dispatch(post("/v1/datasets", {{"source", src}, {"target", to("a")}})).status == 202);
  REQUIRE(router.dispatch(post("/v1/datasets", {{"source", src}, {"target", to("b")}})).status == 202);
  auto refused = router.dispatch(post("/v1/datasets", {{"source", src}, {"target", to("c")}}));
  CHECK(refused.status == 429);
  CHECK(refused.body["error"]["code"] == "too_many_requests");
  CHECK_THAT(message_of(refused), Catch::Contains("2 imports are running"));
  CHECK(refused.body["error"]["retry_after_seconds"] == 10);
  CHECK(refused.headers["Retry-After"] == "10");
  gate.release();
}

TEST_CASE("'jobs' is clamped to the thread budget and the effective value reported, none left: 429",
          "[routes][job_limits]") {
  tfwsl::test::TempDir tmp;
  fs::create_directories(tmp.path() / "src");
  AgentContext context;
  context.roots = {tmp.path()};
  RouteGate gate;
  Router router;
  register_dataset_routes(router, context, gate.runner());
  auto src = (tmp.path() / "src").string();
  auto start = [&](const std::string& name) {
    return router.dispatch(
        post("/v1/datasets", {{"source", src}, {"target", (tmp.path() / name).string()}, {"jobs", 256}}));
  };
  auto first = start("a");
  REQUIRE(first.status == 202);
  CHECK(first.body["jobs"] == 256);
  auto second = start("b");
  REQUIRE(second.status == 202);
  CHECK(second.body["jobs"] == 254);
  CHECK(second.body["jobs_requested"] == 256);
  auto third = start("c");
  CHECK(third.status == 429);
  CHECK_THAT(message_of(third), Catch::Contains("threads"));
  CHECK(third.headers.count("Retry-After") == 1);
  gate.release();
}

TEST_CASE("finished jobs past keep_finished answer 404 'forgotten', unknown ids 'never existed'",
          "[routes][job_limits]") {
  tfwsl::test::TempDir tmp;
  fs::create_directories(tmp.path() / "src");
  AgentContext context;
  context.roots = {tmp.path()};
  context.import_limits.keep_finished = 1;
  RouteGate gate;
  gate.release();  // every job ends at once
  Router router;
  register_dataset_routes(router, context, gate.runner());
  auto src = (tmp.path() / "src").string();
  std::vector<std::string> ids;
  for (const char* name : {"a", "b"}) {
    auto r = router.dispatch(post("/v1/datasets", {{"source", src}, {"target", (tmp.path() / name).string()}}));
    REQUIRE(r.status == 202);
    ids.push_back(r.body["id"]);
    wait_for_job(router, ids.back());
  }
  auto forgotten = router.dispatch(get("/v1/jobs/" + ids[0]));
  CHECK(forgotten.status == 404);
  CHECK_THAT(message_of(forgotten), Catch::Contains("forgotten"));
  CHECK(router.dispatch(get("/v1/jobs/" + ids[1])).status == 200);
  auto never = router.dispatch(get("/v1/jobs/77"));
  CHECK(never.status == 404);
  CHECK_THAT(message_of(never), Catch::Contains("never existed"));
  CHECK(router.dispatch(post("/v1/jobs/" + ids[0] + "/cancel", nlohmann::json::object())).status == 404);
}

TEST_CASE("path fields with a NUL, control characters, too many bytes, or relative: 400 naming the field", "[routes]") {
  tfwsl::test::TempDir tmp;
  fs::create_directories(tmp.path() / "src");
  AgentContext context;
  context.roots = {tmp.path()};
  RouteGate gate;
  Router router;
  register_dataset_routes(router, context, gate.runner());
  auto src = (tmp.path() / "src").string();
  auto dst = (tmp.path() / "dst").string();
  auto refused = [&](const std::string& source, const std::string& target, const std::string& field,
                     const std::string& why) {
    auto r = router.dispatch(post("/v1/datasets", {{"source", source}, {"target", target}}));
    INFO(source << " -> " << target << ": " << r.body.dump());
    CHECK(r.status == 400);
    CHECK(r.body["error"]["code"] == "invalid_input");
    CHECK_THAT(message_of(r), Catch::Contains("'" + field + "'") && Catch::Contains(why));
  };
  refused(src + std::string("\0", 1) + "x", dst, "source", "NUL");
  refused(src + std::string(1, '\0'), dst, "source", "NUL");  // would be truncated to src by a syscall
  refused(src, dst + std::string(1, '\0') + "/../elsewhere", "target", "NUL");
  refused(src + "\nx", dst, "source", "control character");
  refused(src, dst + "\x7f", "target", "control character");
  refused(src, "/" + std::string(5000, 'a'), "target", "4095 bytes");
  refused("src", dst, "source", "absolute");  // relative to the agent's own working directory
  refused(src, "dst", "target", "absolute");
  CHECK_FALSE(fs::exists(tmp.path() / "dst"));
  gate.release();
}

TEST_CASE("refusals name the paths as the client gave them, never what they resolved to", "[routes]") {
  tfwsl::test::TempDir tmp;
  fs::create_directories(tmp.path() / "src");
  AgentContext context;
  context.roots = {tmp.path()};
  RouteGate gate;
  Router router;
  register_dataset_routes(router, context, gate.runner());
  auto src = (tmp.path() / "src").string();
  auto cwd = fs::current_path().string();  // what /proc/self/cwd resolves to in this process
  REQUIRE(cwd.find(tmp.path().string()) == std::string::npos);
  auto check_hidden = [&](const std::string& source, const std::string& target, const std::string& given, int status) {
    auto r = router.dispatch(post("/v1/datasets", {{"source", source}, {"target", target}}));
    INFO(r.body.dump());
    CHECK(r.status == status);
    CHECK_THAT(message_of(r), Catch::Contains(given));
    CHECK(message_of(r).find(cwd) == std::string::npos);
  };
  check_hidden("/proc/self/cwd", (tmp.path() / "dst").string(), "'/proc/self/cwd'", 422);
  check_hidden(src, "/proc/self/cwd/out", "'/proc/self/cwd/out'", 422);
  check_hidden("/proc/self/cwd", "/proc/self/cwd/out", "'/proc/self/cwd'", 422);  // inside the source, too
  check_hidden("/proc/self/cwd/no-such-folder", (tmp.path() / "dst").string(), "'/proc/self/cwd/no-such-folder'", 404);
  // Accepted: the job shows the paths as given, too.
  fs::create_directory_symlink(tmp.path() / "src", tmp.path() / "src-link");
  auto started = router.dispatch(post(
      "/v1/datasets", {{"source", (tmp.path() / "src-link").string()}, {"target", (tmp.path() / "dst").string()}}));
  REQUIRE(started.status == 202);
  CHECK(started.body["source"] == (tmp.path() / "src-link").string());
  gate.release();
}
