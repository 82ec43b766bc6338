// LinuxFacts as JSON (common/agent_api/linux_facts.hpp): a round trip keeps every field, unknown
// fields are ignored, and a missing or wrong-typed field is an error value naming it.
#include <catch2/catch.hpp>

#include "common/agent_api/linux_facts.hpp"

using namespace tfwsl;
using namespace tfwsl::agent_api;

namespace {

// Every field set to something other than its default.
LinuxFacts full_facts() {
  LinuxFacts f;
  f.wsl = {WslKind::wsl2, "5.15.153.1-microsoft-standard-WSL2",
           true,          "",
           true,          {"libcuda.so.1", "libdxcore.so"},
           true,          "/usr/lib/wsl/lib",
           "/win/",       "Ubuntu-22.04"};
  f.gpu.libcuda_loaded = true;
  f.gpu.libcuda_path = "/usr/lib/wsl/lib/libcuda.so.1.1";
  f.gpu.cuda_driver_version = 12040;
  f.gpu.devices = {{0, "NVIDIA GeForce RTX 3080", 8, 6, std::uint64_t{10} << 30}};
  f.gpu.nvml_driver_version = "546.80";
  f.gpu.nvml_device_names = {"NVIDIA GeForce RTX 3080"};
  f.gpu.nvml_source = "nvml";
  f.driver = {{"nvidia-driver-535"}, "", {"/usr/lib/x86_64-linux-gnu/libcuda.so.535.104.05"}};
  f.stack.toolkits = {{"/usr/local/cuda-12.2", "12.2.140"}, {"/usr/local/cuda-13.0", "13.0.48"}};
  f.stack.nvcc = "/usr/local/cuda-12.2/bin/nvcc";
  f.stack.ptxas = "/usr/local/cuda-12.2/bin/ptxas";
  f.stack.cudnn_found = true;
  f.stack.cudnn_library = "/usr/lib/x86_64-linux-gnu/libcudnn.so.9";
  f.stack.cudnn_version = 91900;
  f.stack.python_path = "/home/me/.venvs/tf-2.15/bin/python";
  f.stack.python_version = "3.10.12";
  f.tf.ran = f.tf.installed = true;
  f.tf.version = "2.15.1";
  f.tf.build = {{"cuda_version", "12.2"}, {"cudnn_version", "8"}, {"is_cuda_build", true}};
  f.tf.gpus = {"/physical_device:GPU:0"};
  f.tf.matmul_device = "/job:localhost/replica:0/task:0/device:GPU:0";
  f.tf.stderr_tail = {"I0000 gpu_device.cc:1886] Created device"};
  f.tf.stderr_text = "I0000 gpu_device.cc:1886] Created device\n";
  f.system.mem_total_kb = 16318464;
  f.system.disk_free_bytes = std::uint64_t{200} << 30;
  f.system.data_paths = {{"/mnt/c/data", "/mnt/c", "9p", true}};
  f.timed_out = {"tensorflow"};
  return f;
}

std::string problem(const nlohmann::json& j) {
  auto parsed = parse_linux_facts(j);
  REQUIRE_FALSE(parsed);
  CHECK(parsed.error().code == ErrorCode::parse);
  return parsed.error().message;
}

}  // namespace

TEST_CASE("LinuxFacts JSON round-trips every field", "[facts]") {
  const auto json = to_json(full_facts());
  auto back = parse_linux_facts(json);
  REQUIRE(back);
  CHECK(to_json(*back) == json);
  CHECK(back->stack.cudnn_version == std::optional<long>(91900));
  CHECK(back->gpu.devices.at(0).cc_minor == 6);
  CHECK(back->system.data_paths.at(0).slow);
  CHECK(back->wsl.kind == WslKind::wsl2);
  // And the defaults (absent optionals are null, not left out).
  const auto empty = to_json(LinuxFacts{});
  CHECK(empty["stack"]["cudnn_version"].is_null());
  auto empty_back = parse_linux_facts(empty);
  REQUIRE(empty_back);
  CHECK_FALSE(empty_back->system.mem_total_kb);
  CHECK(to_json(*empty_back) == empty);
}

TEST_CASE("LinuxFacts JSON: unknown fields are ignored, so a newer agent may add some", "[facts]") {
  auto json = to_json(full_facts());
  json["probed_at_ms"] = 1;
  json["stack"]["rocm"] = "nope";
  auto back = parse_linux_facts(json);
  REQUIRE(back);
  CHECK(back->stack.python_version == "3.10.12");
}

TEST_CASE("LinuxFacts JSON: a missing or wrong-typed field is an error naming it, never an exception", "[facts]") {
  auto json = to_json(full_facts());
  auto without = json;
  without["stack"].erase("python_version");
  CHECK(problem(without) == "agent facts: stack.python_version: missing");
  auto wrong = json;
  wrong["system"]["mem_total_kb"] = "16 GB";
  CHECK(problem(wrong) == "agent facts: system.mem_total_kb: expected a non-negative integer or null");
  wrong = json;
  wrong["stack"]["toolkits"][1]["version"] = 13;
  CHECK(problem(wrong) == "agent facts: stack.toolkits[1].version: expected a string");
  wrong = json;
  wrong["wsl"]["kind"] = "wsl3";
  CHECK(problem(wrong).find("wsl.kind: unknown WSL kind 'wsl3'") != std::string::npos);
  wrong = json;
  wrong["tf"]["stderr_tail"] = {"a", 1};
  CHECK(problem(wrong) == "agent facts: tf.stderr_tail: expected a list of strings");
  wrong = json;
  wrong["gpu"]["devices"][0]["compute_capability"] = "x.y";
  CHECK(problem(wrong).find("gpu: ") != std::string::npos);
  wrong = json;
  wrong["system"]["data_paths"][0] = "/mnt/c/data";
  CHECK(problem(wrong) == "agent facts: system.data_paths[0]: expected an object");
  wrong = json;
  wrong.erase("driver");
  CHECK(problem(wrong) == "agent facts: driver: missing");
  CHECK(problem(nlohmann::json::array()) == "agent facts: not a JSON object");
  CHECK(problem(nlohmann::json("facts")) == "agent facts: not a JSON object");
}
