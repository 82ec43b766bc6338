// nvidia-smi's compute_cap query (win/host/gpu_compute_capability.hpp): its own argv, the real
// answers of a current and an old driver, candidates tried in order.
#include "win/host/gpu_compute_capability.hpp"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "tests/support/recording_process_runner.hpp"

using namespace tfwsl;
using namespace tfwsl::host;

namespace {

ProcessOutcome answer(int code, const std::string& out) {
  ProcessOutcome o;
  o.exit_code = code;
  o.out = out;
  return o;
}

}  // namespace

TEST_CASE("the compute_cap query is its own, never a field of the driver query", "[host][gpu]") {
  CHECK(nvidia_smi_compute_cap_argv("nvidia-smi.exe") ==
        std::vector<std::string>{"nvidia-smi.exe", "--query-gpu=name,compute_cap", "--format=csv,noheader"});
}

TEST_CASE("an RTX 5090's real answer reads as compute capability 12.0", "[host][gpu]") {
  auto gpus = parse_compute_cap_query("NVIDIA GeForce RTX 5090, 12.0\r\n");
  REQUIRE(gpus);
  REQUIRE(gpus->size() == 1);
  CHECK(gpus->front().name == "NVIDIA GeForce RTX 5090");
  CHECK(gpus->front().major == 12);
  CHECK(gpus->front().minor == 0);
  auto two = parse_compute_cap_query("NVIDIA GeForce RTX 4090, 8.9\nNVIDIA RTX PRO 1000 Blac..., 12.0\n");
  REQUIRE(two);
  CHECK(two->at(1).major == 12);
}

TEST_CASE("answers without a capability per GPU are not a reading", "[host][gpu]") {
  CHECK_FALSE(parse_compute_cap_query("Field \"compute_cap\" is not a valid field to query.\n"));
  CHECK_FALSE(parse_compute_cap_query("NVIDIA GeForce RTX 4090, 8.9\nNVIDIA GeForce RTX 5090, [N/A]\n"));
  CHECK_FALSE(parse_compute_cap_query("Failed to initialize NVML: Driver/library version mismatch\n"));
  CHECK_FALSE(parse_compute_cap_query(""));
}

TEST_CASE("the first nvidia-smi that starts answers, an old driver's refusal is not checked", "[host][gpu]") {
  tfwsl::test::RecordingProcessRunner runner;
  runner.on({"B\\nvidia-smi.exe"}, answer(0, "NVIDIA GeForce RTX 5090, 12.0\n"));
  auto read = read_gpu_compute_capabilities(runner, {"A\\nvidia-smi.exe", "B\\nvidia-smi.exe"});
  CHECK(read.checked);
  CHECK(read.source == "B\\nvidia-smi.exe");
  REQUIRE(read.gpus.size() == 1);
  CHECK(read.gpus.front().major == 12);
  CHECK(runner.requests().back().argv == nvidia_smi_compute_cap_argv("B\\nvidia-smi.exe"));

  tfwsl::test::RecordingProcessRunner old;
  old.on({"nvidia-smi.exe"}, answer(2, "Field \"compute_cap\" is not a valid field to query.\n"));
  auto refused = read_gpu_compute_capabilities(old, {"nvidia-smi.exe"});
  CHECK_FALSE(refused.checked);
  CHECK_THAT(refused.not_checked, Catch::Contains("exited 2") && Catch::Contains("is not a valid field to query"));

  tfwsl::test::RecordingProcessRunner none;
  auto missing = read_gpu_compute_capabilities(none, {"nvidia-smi.exe"});
  CHECK_FALSE(missing.checked);
  CHECK(missing.not_checked == "nvidia-smi was not found");
}
