#include "linux/provision/cdi_spec.hpp"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>

#include "linux/provision/container_probe.hpp"

using namespace tfwsl::provision;
namespace fs = std::filesystem;

namespace {

// A distro root with NVIDIA's driver store in `store` and the spec nvidia-ctk writes for WSL
// (NVIDIA/nvidia-container-toolkit pkg/nvcdi/driver-wsl.go: the store's files at the same paths,
// /dev/dxg, libdxcore.so) naming `spec_store`.
struct Root {
  fs::path dir = fs::temp_directory_path() / ("tfwsl-cdi-" + std::to_string(::getpid()));
  Root(const std::string& store, const std::string& spec_store) {
    fs::remove_all(dir);
    write(dir / ("usr/lib/wsl/drivers/" + store + "/libcuda.so.1.1"), "x");
    write(dir / "usr/lib/wsl/drivers/iigd_dch.inf_amd64_1/igd.so", "other vendors hold no libcuda");
    write(dir / "usr/lib/wsl/lib/libdxcore.so", "x");
    write(dir / "dev/dxg", "");
    const std::string s = "/usr/lib/wsl/drivers/" + spec_store;
    write(dir / "etc/cdi/nvidia.yaml",
          "---\ncdiVersion: 0.3.0\nkind: nvidia.com/gpu\ndevices:\n    - name: all\n"
          "      containerEdits:\n        deviceNodes:\n            - path: /dev/dxg\n"
          "containerEdits:\n    env:\n        - NVIDIA_VISIBLE_DEVICES=void\n"
          "    mounts:\n        - hostPath: /usr/lib/wsl/lib/libdxcore.so\n"
          "          containerPath: /usr/lib/wsl/lib/libdxcore.so\n"
          "        - hostPath: " +
              s + "/libcuda.so.1.1\n          containerPath: " + s + "/libcuda.so.1.1\n");
  }
  ~Root() { fs::remove_all(dir); }
  static void write(const fs::path& p, const std::string& text) {
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << text;
  }
};

}  // namespace

TEST_CASE("the CDI spec: current when it names the driver store WSL shares now") {
  Root root("nv_dispi.inf_amd64_aaa", "nv_dispi.inf_amd64_aaa");
  const auto state = read_cdi_spec_state(root.dir, "/etc/cdi/nvidia.yaml");
  CHECK(state.verdict == CdiSpecVerdict::current);
  CHECK(state.driver_store == "/usr/lib/wsl/drivers/nv_dispi.inf_amd64_aaa");
}

TEST_CASE("the CDI spec: stale after a driver update, naming the old folder and the new one") {
  Root root("nv_dispi.inf_amd64_bbb", "nv_dispi.inf_amd64_aaa");
  const auto state = read_cdi_spec_state(root.dir, "/etc/cdi/nvidia.yaml");
  CHECK(state.verdict == CdiSpecVerdict::stale);
  CHECK(state.message.find("nv_dispi.inf_amd64_aaa") != std::string::npos);
  CHECK(state.message.find("nv_dispi.inf_amd64_bbb") != std::string::npos);
  REQUIRE(state.missing_paths.size() == 1);
  CHECK(state.missing_paths[0] == "/usr/lib/wsl/drivers/nv_dispi.inf_amd64_aaa/libcuda.so.1.1");
}

TEST_CASE("the CDI spec: missing, not ours, broken, or too big is never current and never a crash") {
  Root root("nv_a", "nv_a");
  const auto spec = root.dir / "etc/cdi/nvidia.yaml";
  fs::remove(spec);
  CHECK(read_cdi_spec_state(root.dir, "/etc/cdi/nvidia.yaml").verdict == CdiSpecVerdict::missing);
  Root::write(spec, "cdiVersion: 0.3.0\nkind: example.com/other\ndevices: [ { name: all } ]\n");
  CHECK(read_cdi_spec_state(root.dir, "/etc/cdi/nvidia.yaml").verdict == CdiSpecVerdict::unreadable);
  Root::write(spec, "kind: nvidia.com/gpu\ndevices: [ { name: all \n");
  CHECK(read_cdi_spec_state(root.dir, "/etc/cdi/nvidia.yaml").verdict == CdiSpecVerdict::unreadable);
  Root::write(spec, std::string(100000, '[') + "\n");
  CHECK(read_cdi_spec_state(root.dir, "/etc/cdi/nvidia.yaml").verdict == CdiSpecVerdict::unreadable);
  Root::write(spec, "kind: nvidia.com/gpu\n#" + std::string((1 << 20) + 10, 'x') + "\n");
  CHECK(read_cdi_spec_state(root.dir, "/etc/cdi/nvidia.yaml").verdict == CdiSpecVerdict::unreadable);
}

TEST_CASE("the container probe: the marked line after an image's banner, foreign shapes read as absent") {
  const auto probe = parse_container_probe(
      "== TensorFlow ==\nNVIDIA Release 25.02-tf2\n"
      "tfwsl-container-probe: {\"tensorflow\": \"2.17.0\", \"gpus\": [\"/physical_device:GPU:0\"], "
      "\"op_on_gpu\": true, \"error\": \"\"}\n");
  REQUIRE(probe);
  CHECK(probe->tensorflow == "2.17.0");
  CHECK(probe->gpus.size() == 1);
  CHECK(probe->op_on_gpu);
  const auto odd =
      parse_container_probe("tfwsl-container-probe: {\"tensorflow\": 2, \"gpus\": \"x\", \"op_on_gpu\": 1}\n");
  REQUIRE(odd);
  CHECK(odd->tensorflow.empty());
  CHECK(odd->gpus.empty());
  CHECK_FALSE(odd->op_on_gpu);
  CHECK_FALSE(parse_container_probe("Error: crun: cannot stat /dev/dxg\n"));
  CHECK_FALSE(parse_container_probe("tfwsl-container-probe: [1, 2]\n"));
}
