// linux/provision's fix-up and apt-refresh helpers: the sources fingerprint, the fix-ups' env file,
// and which TensorFlow/XLA log lines ask for which fix-up.
#include <catch2/catch.hpp>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "linux/provision/apt_sources_state.hpp"
#include "linux/provision/distro_step_checks.hpp"
#include "linux/provision/fixup_env.hpp"
#include "tests/support/test_environment.hpp"

using namespace tfwsl;
using namespace tfwsl::provision;

namespace {

void write_text(const std::filesystem::path& p, const std::string& text) {
  std::filesystem::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << text;
}

}  // namespace

TEST_CASE("apt's sources fingerprint changes when cuda-keyring adds an entry, not otherwise") {
  test::TempDir root;
  write_text(root.path() / "etc/apt/sources.list", "deb http://deb.debian.org/debian bookworm main\n");
  const auto before = apt_sources_fingerprint(root.path());
  CHECK(apt_sources_fingerprint(root.path()) == before);
  write_text(root.path() / "etc/apt/sources.list.d/cuda-wsl-ubuntu-x86_64.list", "deb [signed-by=...] https://... /\n");
  const auto after = apt_sources_fingerprint(root.path());
  CHECK(after != before);
  write_text(root.path() / "etc/apt/sources.list.d/cuda-wsl-ubuntu-x86_64.list",
             "deb [signed-by=...] https://other /\n");
  CHECK(apt_sources_fingerprint(root.path()) != after);
}

TEST_CASE("the fix-ups' env file reads back what it wrote, quotes included, and ignores other lines") {
  test::TempDir dir;
  const std::map<std::string, std::string> vars = {
      {"XLA_FLAGS", "--xla_gpu_cuda_data_dir=/home/u/it's/nvidia/cuda_nvcc"}};
  write_text(dir.path() / "f", "# comment\nexport BROKEN=unquoted\n" + env_exports_text(vars));
  CHECK(read_env_exports((dir.path() / "f").string()) == vars);
  CHECK(read_env_exports((dir.path() / "missing").string()).empty());
}

TEST_CASE("TensorFlow's and XLA's own lines ask for the links or XLA_FLAGS, and a GPU found asks for no link") {
  linux_checks::TfFacts tf;
  tf.installed = true;
  tf.stderr_text = "W tensorflow/core/common_runtime/gpu/gpu_device.cc:2256] Cannot dlopen some GPU libraries.";
  CHECK(tf_needs_library_links(tf));
  CHECK_FALSE(tf_needs_xla_data_dir(tf));
  tf.gpus = {"/physical_device:GPU:0"};
  CHECK_FALSE(tf_needs_library_links(tf));
  tf.stderr_text =
      "W external/local_xla/xla/service/gpu/llvm_gpu_backend/gpu_backend_lib.cc:102] Can't find libdevice "
      "directory ${CUDA_DIR}/nvvm/libdevice.";
  CHECK(tf_needs_xla_data_dir(tf));
  tf.installed = false;
  CHECK_FALSE(tf_needs_xla_data_dir(tf));
}

TEST_CASE("the fix-ups' variables a probe may get: XLA_FLAGS naming an absolute folder, nothing else") {
  std::vector<std::string> dropped;
  const auto kept = probe_fixups({{"XLA_FLAGS", xla_data_dir_flag("/home/u/v/nvidia/cuda_nvcc")},
                                  {"LD_PRELOAD", "/home/u/evil.so"},
                                  {"PATH", "/home/u/bin"}},
                                 &dropped);
  CHECK(kept ==
        std::map<std::string, std::string>{{"XLA_FLAGS", "--xla_gpu_cuda_data_dir=/home/u/v/nvidia/cuda_nvcc"}});
  CHECK(dropped.size() == 2);
  for (const std::string bad :
       {"--xla_gpu_cuda_data_dir=relative/nvcc", "--xla_gpu_cuda_data_dir=/a\n--xla_dump_to=/b",
        "--xla_dump_to=/tmp --xla_gpu_cuda_data_dir=/a", "--xla_gpu_cuda_data_dir=/a\x1b[2J", ""})
    CHECK(probe_fixups({{"XLA_FLAGS", bad}}).empty());
}
