#include "win/push/push_plan.hpp"

#include <catch2/catch.hpp>

#include "tests/unit/push/fake_push_agent.hpp"
#include "win/host/registry.hpp"
#include "win/push/push_run.hpp"

using namespace tfwsl;

namespace {

class FixedFree final : public push::FreeSpace {
 public:
  explicit FixedFree(std::uint64_t bytes) : bytes(bytes) {}
  Result<std::uint64_t> free_bytes(const std::string& path) const override {
    asked.push_back(path);
    return bytes;
  }
  std::uint64_t bytes;
  mutable std::vector<std::string> asked;
};

host::MapRegistry lxss_registry() {
  host::MapRegistry r;
  const std::string lxss = host::reg::k_lxss;
  r.set_string(lxss, "DefaultDistribution", "{aaaa}");
  r.set_string(lxss + "\\{aaaa}", "DistributionName", "Ubuntu");
  r.set_string(lxss + "\\{aaaa}", "BasePath", "\\\\?\\C:\\Users\\me\\AppData\\Local\\wsl\\{aaaa}");
  r.set_string(lxss + "\\{bbbb}", "DistributionName", "Debian");
  r.set_string(lxss + "\\{bbbb}", "BasePath", "E:\\WSL\\Debian\\");
  r.set_string(lxss + "\\{bbbb}", "VhdFileName", "disk.vhdx");
  return r;
}

struct Fixture {
  test::FakePushWorld world;
  host::MapRegistry registry = lxss_registry();
  FixedFree free{std::uint64_t{500} << 30};
  push::PushEnvironment env;
  push::PushRequest request;
  std::vector<std::string> measured;
  std::vector<std::vector<std::string>> measured_excluding;

  Fixture() {
    env.connect = test::fake_connector(world);
    env.registry = &registry;
    env.host_free = &free;
    env.measure = [this](const std::string& source,
                         const std::vector<std::string>& exclude) -> Result<push::SourceTree> {
      measured.push_back(source);
      measured_excluding.push_back(exclude);
      return push::SourceTree{3000, 40, std::uint64_t{2} << 30, 0};
    };
    env.sleep = [](std::chrono::milliseconds) {};
    request.source = "D:\\data\\imgs\\";
  }
};

}  // namespace

TEST_CASE("a push plan resolves SRC through the agent and names the target ~/datasets/<folder>", "[push]") {
  Fixture f;
  push::PushPlan plan;
  REQUIRE(push::plan_push(f.env, f.request, plan));
  CHECK(f.world.connects == std::vector<std::vector<std::string>>{{}});  // the planning agent has no roots
  CHECK(f.world.resolved == std::vector<std::string>{"D:\\data\\imgs\\"});
  CHECK(plan.source_linux == "/mnt/d/data/imgs");
  CHECK(plan.name == "imgs");
  CHECK(plan.target == "/home/me/datasets/imgs");
  CHECK(plan.target_root == "/home/me");
  CHECK(f.measured == std::vector<std::string>{"D:\\data\\imgs\\"});
  CHECK(plan.vhdx->vhdx_path == "C:\\Users\\me\\AppData\\Local\\wsl\\{aaaa}\\ext4.vhdx");
  CHECK(f.free.asked == std::vector<std::string>{"C:\\Users\\me\\AppData\\Local\\wsl\\{aaaa}"});
  CHECK(plan.host_room.checked);
  CHECK(plan.host_room.enough);
  CHECK(plan.distro_room.checked);
  CHECK(plan.distro_name == "Ubuntu");  // the registry's DistributionName, not the agent's PRETTY_NAME
  CHECK(f.world.started.empty());
}

TEST_CASE("push: --name and --to (with ~) choose the target - a target outside home is its own root", "[push]") {
  Fixture f;
  f.request.name = "cats";
  f.request.to = "~/data";
  push::PushPlan plan;
  REQUIRE(push::plan_push(f.env, f.request, plan));
  CHECK(plan.target == "/home/me/data/cats");
  CHECK(plan.target_root == "/home/me");
  f.request.to = "/srv/sets/";
  REQUIRE(push::plan_push(f.env, f.request, plan));
  CHECK(plan.target == "/srv/sets/cats");
  CHECK(plan.target_root == "/srv/sets/");
  f.request.name = "../up";
  CHECK_FALSE(push::plan_push(f.env, f.request, plan));
}

TEST_CASE("a drive root needs --name", "[push]") {
  Fixture f;
  f.request.source = "D:\\";
  push::PushPlan plan;
  auto planned = push::plan_push(f.env, f.request, plan);
  REQUIRE_FALSE(planned);
  CHECK_THAT(planned.error().message, Catch::Contains("--name"));
}

TEST_CASE("a UNC path the agent refuses is refused with its reason, before anything else", "[push]") {
  Fixture f;
  f.request.source = "\\\\server\\share\\imgs";
  f.world.resolve_error = Error{ErrorCode::invalid_input,
                                "'\\\\server\\share\\imgs' is on the network share \\\\server\\share, "
                                "which is not mapped into this distro. Fix: Map the share",
                                {},
                                {}};
  push::PushPlan plan;
  auto planned = push::plan_push(f.env, f.request, plan);
  REQUIRE_FALSE(planned);
  CHECK_THAT(planned.error().message, Catch::Contains("network share") && Catch::Contains("cannot push"));
  CHECK(f.measured.empty());
  CHECK(f.world.started.empty());
}

TEST_CASE("a host drive without room for the data and the margin refuses before any job", "[push]") {
  Fixture f;
  f.free.bytes = (std::uint64_t{2} << 30) + (std::uint64_t{1} << 29);  // 2.5 GiB for 2 GiB of data: margin is 1 GiB
  push::PushPlan plan;
  auto planned = push::plan_push(f.env, f.request, plan);
  REQUIRE_FALSE(planned);
  CHECK(planned.error().code == ErrorCode::no_space);
  CHECK_THAT(planned.error().message, Catch::Contains("ext4.vhdx") && Catch::Contains("2.5 GiB free"));
  CHECK(plan.host_room.checked);
  CHECK_FALSE(plan.host_room.enough);
  CHECK(plan.host_room.needed == (std::uint64_t{3} << 30));
  CHECK(f.world.connects.size() == 1);  // no second agent, no job
  CHECK(f.world.started.empty());
}

TEST_CASE("the named distro's vhdx is the one checked - the distro's own filesystem is checked too", "[push]") {
  Fixture f;
  f.request.distro = "debian";
  f.world.distro_free = std::uint64_t{1} << 30;
  push::PushPlan plan;
  auto planned = push::plan_push(f.env, f.request, plan);
  CHECK(f.free.asked == std::vector<std::string>{"E:\\WSL\\Debian"});
  CHECK(plan.vhdx->vhdx_path == "E:\\WSL\\Debian\\disk.vhdx");
  REQUIRE_FALSE(planned);
  CHECK_THAT(planned.error().message, Catch::Contains("the distro's filesystem has 1.0 GiB free"));
}

TEST_CASE("without a registry entry the host drive is reported unchecked, not refused", "[push]") {
  Fixture f;
  host::MapRegistry empty;
  f.env.registry = &empty;
  push::PushPlan plan;
  REQUIRE(push::plan_push(f.env, f.request, plan));
  CHECK_FALSE(plan.host_room.checked);
  CHECK_THAT(plan.host_room.reason, Catch::Contains("ext4.vhdx was not found"));
}

TEST_CASE("without a registry entry the distro is named as wsl -l -v names the default, not by its os-release",
          "[push]") {
  Fixture f;
  host::MapRegistry empty;
  f.env.registry = &empty;
  push::PushPlan plan;
  REQUIRE(push::plan_push(f.env, f.request, plan));
  CHECK(plan.distro_name.find(' ') != std::string::npos);  // the agent's name: "Ubuntu 22.04.3 LTS"-like
  f.env.default_distro = [] { return std::string("Ubuntu-22.04"); };
  push::PushPlan named;
  REQUIRE(push::plan_push(f.env, f.request, named));
  CHECK(named.distro_name == "Ubuntu-22.04");
  CHECK(push::windows_view_of(named.distro_name, "/home/me/datasets/imgs") ==
        "\\\\wsl.localhost\\Ubuntu-22.04\\home\\me\\datasets\\imgs");
}

TEST_CASE("the push runs on an agent rooted at the source and the target's root, and reports progress", "[push]") {
  Fixture f;
  f.world.states = {test::job_state("running", 4, 10), test::job_state("running", 8, 10),
                    test::job_state("succeeded", 10, 10)};
  std::vector<std::uint64_t> seen;
  f.env.progress = [&seen](const push::JobProgress& p) { seen.push_back(p.files_done); };
  push::PushPlan plan;
  REQUIRE(push::plan_push(f.env, f.request, plan));
  auto outcome = push::execute_push(f.env, f.request, plan);
  CHECK(outcome.end == push::PushEnd::succeeded);
  CHECK(outcome.exit_code() == 0);
  REQUIRE(f.world.connects.size() == 2);
  CHECK(f.world.connects[1] == std::vector<std::string>{"/mnt/d/data/imgs", "/home/me"});
  REQUIRE(f.world.started.size() == 1);
  CHECK(f.world.started[0].source == "/mnt/d/data/imgs");
  CHECK(f.world.started[0].target == "/home/me/datasets/imgs");
  CHECK_FALSE(f.world.started[0].move);
  CHECK(f.world.started[0].exclude.empty());
  CHECK(seen == std::vector<std::uint64_t>{0, 4, 8, 10});
}

TEST_CASE("push: the --exclude names reach both the measure and the job", "[push]") {
  Fixture f;
  f.world.states = {test::job_state("succeeded", 10, 10)};
  f.request.exclude = {".venv", "__pycache__"};
  push::PushPlan plan;
  REQUIRE(push::plan_push(f.env, f.request, plan));
  REQUIRE(f.measured_excluding.size() == 1);
  CHECK(f.measured_excluding[0] == f.request.exclude);
  auto outcome = push::execute_push(f.env, f.request, plan);
  CHECK(outcome.end == push::PushEnd::succeeded);
  REQUIRE(f.world.started.size() == 1);
  CHECK(f.world.started[0].exclude == f.request.exclude);
}

TEST_CASE("an interrupt cancels the job through the API and waits for it to stop (exit 130)", "[push]") {
  Fixture f;
  f.world.states = {test::job_state("running", 4, 10)};
  auto cancelled = test::job_state("cancelled", 5, 10);
  cancelled.error_code = "cancelled";
  f.world.after_cancel = {test::job_state("running", 5, 10), cancelled};
  int polls = 0;
  f.env.interrupted = [&] { return ++polls > 3; };
  push::PushPlan plan;
  REQUIRE(push::plan_push(f.env, f.request, plan));
  auto outcome = push::execute_push(f.env, f.request, plan);
  CHECK(outcome.end == push::PushEnd::interrupted);
  CHECK(outcome.exit_code() == 130);
  CHECK(f.world.cancels == 1);
  CHECK(outcome.job->status == push::JobStatus::cancelled);
  CHECK(outcome.job->progress.files_done == 5);
}

TEST_CASE("problems make exit 1 - a failed job exit 2 with its message - a busy target says so", "[push]") {
  Fixture f;
  auto with_problems = test::job_state("succeeded", 10, 10);
  with_problems.result = tfwsl::agent_api::ImportResult{};
  with_problems.result->problems.push_back({"a", "unreadable", "denied"});
  f.world.states = {with_problems};
  push::PushPlan plan;
  REQUIRE(push::plan_push(f.env, f.request, plan));
  CHECK(push::execute_push(f.env, f.request, plan).exit_code() == 1);

  auto failed = test::job_state("failed", 3, 10);
  failed.error_message = "not enough space in /home/me/datasets/imgs";
  f.world.states = {failed};
  auto outcome = push::execute_push(f.env, f.request, plan);
  CHECK(outcome.exit_code() == 2);
  CHECK(outcome.error->message == "not enough space in /home/me/datasets/imgs");

  f.world.start_error = Error{ErrorCode::conflict, "a job is writing into that target", {}, {}};
  outcome = push::execute_push(f.env, f.request, plan);
  CHECK(outcome.exit_code() == 2);
  CHECK_THAT(outcome.error->message, Catch::Contains("another push or import"));
}

TEST_CASE("a lost agent ends the push with the resume advice", "[push]") {
  Fixture f;
  f.world.states.clear();  // status answers an error
  push::PushPlan plan;
  REQUIRE(push::plan_push(f.env, f.request, plan));
  auto outcome = push::execute_push(f.env, f.request, plan);
  CHECK(outcome.end == push::PushEnd::failed);
  CHECK_THAT(outcome.error->message, Catch::Contains("push again to continue"));
}

TEST_CASE("names and Windows views of pushed data", "[push]") {
  CHECK(push::default_push_name("C:\\data\\imgs") == "imgs");
  CHECK(push::default_push_name("C:\\data\\imgs\\\\") == "imgs");
  CHECK(push::default_push_name("C:\\") == "");
  CHECK(push::default_push_name("/home/me/raw/") == "raw");
  CHECK(push::windows_view_of("Ubuntu", "/home/me/datasets/x") == "\\\\wsl.localhost\\Ubuntu\\home\\me\\datasets\\x");
  CHECK(push::windows_view_of("", "/x") == "");
}
