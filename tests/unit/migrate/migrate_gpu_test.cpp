// The plan's GPU check (win/migrate/gpu_check.hpp): read through nvidia-smi's own compute_cap query
// and judged as tfwsl-agent provision judges it, before anything is changed.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "tests/support/recording_process_runner.hpp"
#include "tests/unit/migrate/fake_project_files.hpp"
#include "win/host/gpu_compute_capability.hpp"
#include "win/migrate/migrate_plan.hpp"

using namespace tfwsl;
using namespace tfwsl::migrate;

namespace {

host::GpuReading read_as(const std::string& name, int major, int minor) {
  host::GpuReading r;
  r.checked = true;
  r.gpus.push_back({name, major, minor});
  r.source = "C:\\Windows\\System32\\nvidia-smi.exe";
  return r;
}

MigratePlan plan_with_gpu(const std::string& requirements, const host::GpuReading& gpu, bool force = false) {
  static const auto profiles = shipped_wsl_profiles();
  migrate::test::FakeProjectFiles fs;
  fs.files["requirements.txt"] = requirements;
  PlanInput input{fs, "proj", "~/projects", "~/datasets", force, builtin_migrate_facts(), profiles, {}, {}, gpu};
  auto plan = build_plan(input);
  REQUIRE(plan);
  return *plan;
}

// What an old driver's nvidia-smi (470.x) answers to a field it does not know: the real text and status.
host::GpuReading read_from_old_driver() {
  tfwsl::test::RecordingProcessRunner runner;
  ProcessOutcome old;
  old.exit_code = 2;
  old.out = "Field \"compute_cap\" is not a valid field to query.\n\n";
  runner.on({"nvidia-smi.exe"}, old);
  return host::read_gpu_compute_capabilities(runner, {"nvidia-smi.exe"});
}

}  // namespace

TEST_CASE("a Blackwell GPU plans the container route instead of refusing, with the image's size", "[migrate][gpu]") {
  const auto plan = plan_with_gpu("tensorflow==2.15.1\nnumpy<2\n", read_as("NVIDIA GeForce RTX 5090", 12, 0));
  CHECK(plan.decision.decision == Decision::needs_wsl);
  CHECK(plan.gpu.judged);
  REQUIRE(plan.gpu.refused());  // the stock wheels still cannot run: said, and the route changes
  REQUIRE(plan.container);
  CHECK(exit_code_for(plan) == 0);
  CHECK(plan.problems.empty());
  CHECK(plan.container->profile == "ngc-tf-25.02");
  CHECK(plan.container->tensorflow == "2.17");
  CHECK(plan.container->download_bytes == 9000000000u);
  CHECK_THAT(plan.container->why, Catch::Contains("NVIDIA GeForce RTX 5090 (12.0)"));
  // 2.15.1 is not the image's 2.17: a note with what it means (Keras 3), not a refusal.
  REQUIRE(plan.container->notes.size() == 2);
  CHECK_THAT(plan.container->notes[0], Catch::Contains("pins tensorflow==2.15.1") && Catch::Contains("2.17"));
  CHECK_THAT(plan.container->notes[1], Catch::Contains("Keras 3") && Catch::Contains("TF_USE_LEGACY_KERAS=1"));
  const std::string text = render_text(plan);
  CHECK_THAT(text, Catch::Contains(
                       "GPU: NVIDIA GeForce RTX 5090, compute capability 12.0: no stock TensorFlow wheel runs on it"));
  CHECK_THAT(text, Catch::Contains("Route: container, profile ngc-tf-25.02") &&
                       Catch::Contains("Image: nvcr.io/nvidia/tensorflow:25.02-tf2-py3") &&
                       Catch::Contains("downloads about 8.4 GiB"));
  CHECK_THAT(text, !Catch::Contains("Problem:"));
  const auto j = to_json(plan);
  CHECK(j["gpu"]["stock_wheels"] == "refused");
  CHECK(j["container_route"]["profile"] == "ngc-tf-25.02");
  CHECK(j["container_route"]["pinned"].get<std::string>().find("@sha256:") != std::string::npos);
  CHECK(j["problems"].empty());
}

TEST_CASE("a project pinning the image's TensorFlow gets no note, and an Ada GPU keeps the venv route",
          "[migrate][gpu]") {
  const auto same = plan_with_gpu("tensorflow==2.17.0\n", read_as("NVIDIA GeForce RTX 5090", 12, 0));
  REQUIRE(same.container);
  CHECK(same.container->notes.empty());
  const auto ada = plan_with_gpu("tensorflow==2.17.0\n", read_as("NVIDIA GeForce RTX 4090", 8, 9));
  CHECK_FALSE(ada.container);
  CHECK(to_json(ada)["container_route"].is_null());
}

TEST_CASE("a named profile forces either route: the container's on any GPU, a venv one on Blackwell is refused",
          "[migrate][gpu]") {
  static const auto profiles = shipped_wsl_profiles();
  migrate::test::FakeProjectFiles fs;
  fs.files["requirements.txt"] = "tensorflow==2.17.0\n";
  PlanInput asked{fs,
                  "proj",
                  "~/projects",
                  "~/datasets",
                  false,
                  builtin_migrate_facts(),
                  profiles,
                  {},
                  "ngc-tf-25.02",
                  read_as("NVIDIA GeForce RTX 4090", 8, 9)};
  auto plan = build_plan(asked);
  REQUIRE(plan);
  REQUIRE(plan->container);
  CHECK(plan->container->asked);
  CHECK(exit_code_for(*plan) == 0);
  PlanInput venv{fs,
                 "proj",
                 "~/projects",
                 "~/datasets",
                 false,
                 builtin_migrate_facts(),
                 profiles,
                 {},
                 "tf-2.17-cuda-12.3",
                 read_as("NVIDIA GeForce RTX 5090", 12, 0)};
  plan = build_plan(venv);
  REQUIRE(plan);
  CHECK_FALSE(plan->container);
  CHECK(exit_code_for(*plan) == 2);
  CHECK_THAT(plan->problems.front(),
             Catch::Contains("refused, nothing was changed") && Catch::Contains("nvcr.io/nvidia/tensorflow"));
}

TEST_CASE("an Ada GPU (8.9) lets the plan go ahead and says what was read", "[migrate][gpu]") {
  const auto plan = plan_with_gpu("tensorflow==2.15.1\n", read_as("NVIDIA GeForce RTX 4090", 8, 9));
  CHECK(plan.gpu.judged);
  CHECK_FALSE(plan.gpu.refused());
  CHECK(plan.problems.empty());
  CHECK(exit_code_for(plan) == 0);
  const std::string text = render_text(plan);
  CHECK_THAT(text, Catch::Contains("GPU: NVIDIA GeForce RTX 4090, compute capability 8.9\n"));
  CHECK_THAT(text, !Catch::Contains("Problem:"));
  const auto j = to_json(plan);
  CHECK(j["gpu"]["stock_wheels"] == "ok");
  CHECK(j["gpu"]["summary"].is_null());
  CHECK(j["gpu"]["not_checked"].is_null());
}

TEST_CASE("a GPU that cannot be read (an old driver without compute_cap) is said not checked and the plan goes on",
          "[migrate][gpu]") {
  const auto reading = read_from_old_driver();
  REQUIRE_FALSE(reading.checked);
  const auto plan = plan_with_gpu("tensorflow==2.15.1\n", reading);
  CHECK_FALSE(plan.gpu.judged);
  CHECK(plan.problems.empty());
  CHECK(exit_code_for(plan) == 0);
  CHECK_THAT(render_text(plan), Catch::Contains("GPU: not checked (nvidia-smi.exe exited 2") &&
                                    Catch::Contains("Field \"compute_cap\" is not a valid field to query.") &&
                                    Catch::Contains("the plan goes on without it"));
  const auto j = to_json(plan);
  CHECK(j["gpu"]["checked"] == false);
  CHECK(j["gpu"]["stock_wheels"].is_null());
  CHECK_THAT(j["gpu"]["not_checked"].get<std::string>(), Catch::Contains("compute_cap"));
}

TEST_CASE("no GPU reading at all (a caller that read none) is not checked, never judged", "[migrate][gpu]") {
  const auto plan = plan_with_gpu("tensorflow==2.15.1\n", host::GpuReading{});
  CHECK_FALSE(plan.gpu.judged);
  CHECK(exit_code_for(plan) == 0);
  CHECK_THAT(render_text(plan), Catch::Contains("GPU: not checked (not read)"));
}

TEST_CASE("a native-ok project on a Blackwell GPU takes the container route, not native Windows", "[migrate][gpu]") {
  const auto plan = plan_with_gpu("tensorflow-gpu==2.10.0\n", read_as("NVIDIA GeForce RTX 5090", 12, 0));
  CHECK(plan.decision.decision == Decision::native_ok);
  CHECK(plan.gpu.refused());
  REQUIRE(plan.container);
  CHECK(exit_code_for(plan) == 0);
  CHECK_THAT(render_text(plan), !Catch::Contains("pass --force to migrate anyway"));
}

TEST_CASE("without a target profile (TF 1.x) the GPU is read but not judged", "[migrate][gpu]") {
  const auto plan = plan_with_gpu("tensorflow==1.15.5\n", read_as("NVIDIA GeForce RTX 5090", 12, 0));
  CHECK(plan.decision.decision == Decision::refuse_tf1);
  CHECK_FALSE(plan.gpu.judged);
  CHECK_FALSE(plan.gpu.refused());
  CHECK(to_json(plan)["gpu"]["stock_wheels"].is_null());
  CHECK(exit_code_for(plan) == 2);  // refuse-tf1's own status
}
