// Facts `tfwsl explain` did not diagnose before (issue 14, item 9): RTX 50xx on stock wheels, the
// [and-cuda] wheels not found, libdevice, gpuSupport=false, PEP 668, nvidia-smi crashing, Keras 3.
#include <catch2/catch.hpp>
#include <string>

#include "common/diagnose/explain_engine.hpp"
#include "tests/unit/diagnose/explain_test_support.hpp"

using namespace tfwsl::diagnose;

using namespace tfwsl::test::explain;

TEST_CASE("verdict 9: compute capability 12.0 on stock wheels, INVALID_PTX and INVALID_HANDLE") {
  auto ptx =
      run("W tensorflow/compiler/mlir/tools/kernel_gen/tf_gpu_runtime_wrappers.cc:40] 'cuModuleLoadData(&module, "
          "data)' failed with 'CUDA_ERROR_INVALID_PTX'\nW tensorflow/compiler/mlir/tools/kernel_gen/"
          "tf_gpu_runtime_wrappers.cc:40] 'cuModuleGetFunction(&function, module, kernel_name)' failed with "
          "'CUDA_ERROR_INVALID_HANDLE'\n");
  CHECK(ptx.kind == "tf-log");
  REQUIRE(has(ptx, "tf.kernel-image-invalid"));
  CHECK(contains(find(ptx, "tf.kernel-image-invalid")->summary, "12.0"));
  CHECK(contains(find(ptx, "tf.kernel-image-invalid")->fix, "nvcr.io/nvidia/tensorflow"));
  auto cc =
      run("W0000 00:00:1753232013.685876   24341 gpu_device.cc:2431] TensorFlow was not built with CUDA kernel "
          "binaries compatible with compute capability 12.0. CUDA kernels will be jit-compiled from PTX, which "
          "could take 30 minutes or longer.\n");
  CHECK(has(cc, "tf.kernel-image-invalid"));
  // An older GPU whose kernels are merely JIT-compiled (8.9 on an old wheel) is not that.
  CHECK_FALSE(
      has(run("W gpu_device.cc:2431] TensorFlow was not built with CUDA kernel binaries compatible with compute "
              "capability 8.9. CUDA kernels will be jit-compiled from PTX\n"),
          "tf.kernel-image-invalid"));
}

TEST_CASE("verdict 9: TF >= 2.16 with [and-cuda] not finding its pip CUDA libraries") {
  const std::string dlopen =
      "2024-03-11 02:00:01.180445: W tensorflow/core/common_runtime/gpu/gpu_device.cc:2251] Cannot "
      "dlopen some GPU libraries. Please make sure the missing libraries mentioned above are "
      "installed properly if you would like to use GPU.\nSkipping registering GPU devices...\n";
  for (const std::string& install : {std::string("$ pip install tensorflow[and-cuda]\n"),
                                     std::string("I followed the guide: `pip install tensorflow[and cuda]`\n"),
                                     std::string("Requirement already satisfied: nvidia-cudnn-cu12==8.9.7.29\n")}) {
    auto e = run(install + dlopen);
    INFO(install);
    CHECK(e.kind == "tf-log");
    CHECK(has(e, "tf.and-cuda-libs-not-found"));
    CHECK_FALSE(has(e, "tf.dlopen-failed"));
  }
  // Without the wheels in sight, it is the general dlopen failure.
  auto plain = run(dlopen);
  CHECK(has(plain, "tf.dlopen-failed"));
  CHECK_FALSE(has(plain, "tf.and-cuda-libs-not-found"));
}

TEST_CASE("verdict 9: libdevice not found and ptxas missing") {
  auto libdevice =
      run("W external/local_xla/xla/service/gpu/llvm_gpu_backend/gpu_backend_lib.cc:510] libdevice not "
          "found at ./libdevice.10.bc\n");
  REQUIRE(has(libdevice, "tf.libdevice-missing"));
  CHECK(contains(find(libdevice, "tf.libdevice-missing")->fix, "xla_gpu_cuda_data_dir=/usr/local/cuda-12.2"));
  CHECK(has(run("E tensorflow/compiler/xla/stream_executor/gpu/asm_compiler.cc] Couldn't get ptxas version string\n"),
            "tf.libdevice-missing"));
  auto windows =
      run("C:\\work>python train.py\nerror: Can't find libdevice directory ${CUDA_DIR}/nvvm/libdevice\n"
          "2022-08-10 10:00:00.1: W tensorflow/core/framework/op_kernel.cc:1768] UNKNOWN: JIT compilation "
          "failed.\n");
  REQUIRE(has(windows, "tf.libdevice-missing"));
  CHECK(contains(find(windows, "tf.libdevice-missing")->fix, "$env:XLA_FLAGS"));
  CHECK_FALSE(contains(find(windows, "tf.libdevice-missing")->fix, "export "));
}

TEST_CASE("verdict 9: gpuSupport=false in .wslconfig") {
  auto off = run("[wsl2]\nmemory=8GB\ngpuSupport=false\n");
  CHECK(off.kind == "wslconfig");
  REQUIRE(has(off, "wslconfig.gpu-disabled"));
  CHECK(find(off, "wslconfig.gpu-disabled")->severity == Severity::error);
  CHECK(has(run("[wsl2]\ngpuSupport = False\n"), "wslconfig.gpu-disabled"));
  CHECK_FALSE(has(run("[wsl2]\ngpuSupport=true\n"), "wslconfig.gpu-disabled"));
}

TEST_CASE("verdict 9: externally-managed-environment (PEP 668) in any paste") {
  auto e =
      run("$ pip install tensorflow[and-cuda]\nerror: externally-managed-environment\n\n"
          "\xC3\x97 This environment is externally managed\n");
  REQUIRE(has(e, "pip.externally-managed"));
  const std::string fix = find(e, "pip.externally-managed")->fix;
  CHECK(contains(fix, "python3 -m venv ~/.venvs/tf-2.15"));
  CHECK(contains(fix, "tensorflow[and-cuda]==2.15.*"));
  CHECK(contains(fix, "python3-venv"));
}

TEST_CASE("verdict 9: nvidia-smi segfaulting in WSL after its header") {
  auto e =
      run("$ nvidia-smi\nSun May 26 12:43:43 2024\n"
          "+-----------------------------------------------------------------------------------------+\n"
          "| NVIDIA-SMI 555.42.03              Driver Version: 555.85         CUDA Version: 12.5     |\n"
          "|-----------------------------------------+------------------------+----------------------+\n"
          "Segmentation fault\n");
  CHECK(e.kind == "nvidia-smi");
  CHECK(e.facts["driver_version"] == "555.85");
  CHECK(has(e, "gpu.nvidia-smi-crash"));
  CHECK_FALSE(has(e, "gpu.visible"));
  CHECK(has(run("| NVIDIA-SMI 555.42.03   Driver Version: 555.85   CUDA Version: 12.5 |\n"
                "[1]    494 segmentation fault  nvidia-smi\n"),
            "gpu.nvidia-smi-crash"));
}

TEST_CASE("verdict 9: Keras 3 errors after moving past TF 2.15") {
  auto load =
      run("ValueError: File format not supported: filepath=models/x. Keras 3 only supports V3 `.keras` files and "
          "legacy H5 format files (`.h5` extension).\n");
  REQUIRE(has(load, "tf.keras3"));
  CHECK(find(load, "tf.keras3")->severity == Severity::warning);
  CHECK(contains(find(load, "tf.keras3")->fix, "tf-keras"));
  CHECK(contains(find(load, "tf.keras3")->fix, "tensorflow[and-cuda]==2.15.*"));
  CHECK(
      has(run("ImportError: Keras cannot be imported. Check that it is installed. You do not have the tf_keras package "
              "installed\n"),
          "tf.keras3"));
}
