// The shapes and facts of issue 26: TF messages quoted in prose beside an environment table, older
// and localised wsl.exe warnings, several outputs in one paste, IPython prompts, HTML entities,
// codes and options typed by hand, Blackwell, driver numbers across the boundary, Keras 3.
#include <catch2/catch.hpp>
#include <string>

#include "common/diagnose/explain_engine.hpp"
#include "common/parse/paste_cleaner.hpp"
#include "common/parse/wsl_error_parser.hpp"
#include "common/parse/wsl_message_catalog.hpp"
#include "tests/unit/diagnose/explain_test_support.hpp"

using namespace tfwsl::test::explain;

TEST_CASE("real paste shapes: TF's own messages outweigh an environment table's 'WSL version' lines") {
  auto e =
      run("Facing this error - Unable to register cuDNN factory: Attempting to register factory for plugin cuDNN "
          "when one has already been registered.\nTF-TRT Warning: Could not find TensorRT\n"
          "could not open file to read NUMA node: /sys/bus/pci/devices/0000:01:00.0/numa_node\n\n"
          "Nvidia Driver Version: NVIDIA-SMI 546.17 Driver Version: 546.17\nCUDA Version: 12.3\n"
          "TensorFlow Version (if applicable): 2.15.0\nWSL version: 2.0.14.0\nKernel version: 5.15.133.1-1\n");
  CHECK(e.kind == "tf-log");
  CHECK(has(e, "tf.duplicate-registration"));
  // A whole `wsl --version` block is still that.
  auto v = run(
      "WSL version: 2.0.9.0\nKernel version: 5.15.133.1-1\nWSLg version: 1.0.59\nWindows version: 10.0.22631.2715\n");
  CHECK(v.kind == "wsl-version");
}

TEST_CASE("real paste shapes: wsl.exe's start-up warnings in any language and in the wordings they had") {
  const auto& catalog = tfwsl::parse::wsl_message_catalog();
  CHECK_FALSE(catalog.sparse_vhd_sentences.empty());
  CHECK_FALSE(catalog.mirrored_fallback_sentences.empty());
  CHECK_FALSE(catalog.policy_override_parts.empty());
  // The 2024 English wording (", falling back") and today's Chinese one (": ... 正在回退").
  CHECK(tfwsl::parse::detect_wsl_errors(
            "wsl: Mirrored networking mode is not supported, falling back to NAT networking\n")
            .mirrored_fallback);
  CHECK(tfwsl::parse::detect_wsl_errors(
            "wsl: 不支持镜像网络模式： Windows 版本 19045.4717 没有所需的功能。\n正在回退到 NAT 网络。\n")
            .mirrored_fallback);
  CHECK(tfwsl::parse::detect_wsl_errors("由于潜在的数据损坏，目前已禁用稀疏 VHD 支持。\n").sparse_vhd_disabled);
  CHECK(tfwsl::parse::detect_wsl_errors(
            "wsl: The .wslconfig setting 'wsl2.networkingMode' is disabled by the computer policy.\n")
            .policy_override);
  auto e =
      run("PS C:\\> wsl --manage archlinux --set-sparse true\n由于潜在的数据损坏，目前已禁用稀疏 VHD 支持。\n"
          "错误代码: Wsl/Service/E_INVALIDARG\n");
  CHECK(has(e, "wsl.sparse-vhd-disabled"));
}

TEST_CASE("real paste shapes: several outputs in one paste give the facts of each part") {
  auto e =
      run("PS C:\\> wsl --status\nDefault Distribution: openSUSE-Tumbleweed\nDefault Version: 2\n\n"
          "PS C:\\> wsl --version\nWSL version: 1.1.2.0\nKernel version: 5.15.83.1\nWSLg version: 1.0.49\n"
          "Windows version: 10.0.19045.2546\n");
  CHECK(e.kind == "wsl-version");
  CHECK(e.facts.value("wsl_version", "") == "1.1.2.0");
  CHECK(e.facts.value("default_distribution", "") == "openSUSE-Tumbleweed");
}

TEST_CASE("real paste shapes: IPython prompts and HTML entities are taken off") {
  auto cleaned = tfwsl::clean_paste("In [3]: import tensorflow as tf\nOut[3]: 1\n");
  REQUIRE_FALSE(cleaned.commands.empty());
  CHECK(cleaned.commands.front() == "import tensorflow as tf");
  CHECK(cleaned.text.find("In [3]") == std::string::npos);
  auto html = tfwsl::clean_paste("No module named &#39;keras.src&#39;\n");
  CHECK(html.text == "No module named 'keras.src'\n");
}

TEST_CASE("real paste shapes: codes and options typed by hand") {
  auto code =
      run("Installing, this may take a few minutes...\nWslRegisterDistribution failed with error: 0\xC3\x97"
          "80370102\n");
  CHECK(has(code, "wsl.virtualization-disabled"));
  auto typo =
      run("PS C:\\> wsl --satus\nInvalid command line argument: --satus\nPlease use 'wsl.exe --help' to get a list of "
          "supported arguments.\n");
  CHECK(has(typo, "wsl.option-typo"));
  CHECK_FALSE(has(typo, "wsl.cli-too-old"));
  // A real option an old inbox wsl.exe does not know is still that.
  auto old = run("PS C:\\> wsl --version\nInvalid command line option: --version\n");
  CHECK(has(old, "wsl.cli-too-old"));
  CHECK_FALSE(has(old, "wsl.option-typo"));
}

TEST_CASE("real paste shapes: Blackwell and the two driver numbers of nvidia-smi inside WSL") {
  const std::string table =
      "+-----------------------------------------------------------------------------------------+\n"
      "| NVIDIA-SMI 570.194                Driver Version: 573.76         CUDA Version: 12.8     |\n"
      "|-----------------------------------------+------------------------+----------------------+\n"
      "|   0  NVIDIA GeForce RTX 5090        On  |   00000000:01:00.0 Off |                  N/A |\n"
      "|  0%   41C    P8             19W /  575W |    1024MiB /  32607MiB |      0%      Default |\n";
  auto e = run(table);
  CHECK(e.kind == "nvidia-smi");
  CHECK(has(e, "gpu.blackwell"));
  CHECK(has(e, "gpu.wsl-driver-numbering"));
  // Windows' own nvidia-smi prints one number twice: nothing to explain there.
  auto windows =
      run("| NVIDIA-SMI 572.61                 Driver Version: 572.61         CUDA Version: 12.8     |\n"
          "|   0  NVIDIA T1200 Laptop GPU      WDDM  |   00000000:01:00.0  On |                  N/A |\n");
  CHECK_FALSE(has(windows, "gpu.wsl-driver-numbering"));
  CHECK_FALSE(has(windows, "gpu.blackwell"));
  auto xla =
      run("2025-05-01 10:00:00.000000: W external/local_xla/xla/service/gpu/llvm_gpu_backend/gpu_backend_lib.cc:123] "
          "ptxas fatal   : PTX version 8.5 does not support target 'sm_120'\n");
  CHECK(has(xla, "tf.kernel-image-invalid"));
}

TEST_CASE("real paste shapes: PTX JIT below 12.0 and a GPU below the build's minimum") {
  auto jit =
      run("W tensorflow/core/common_runtime/gpu/gpu_device.cc:2052] TensorFlow was not built with CUDA kernel binaries "
          "compatible with compute capability 9.0. CUDA kernels will be jit-compiled from PTX, which could take 30 "
          "minutes or longer.\n");
  CHECK(has(jit, "tf.ptx-jit"));
  CHECK_FALSE(has(jit, "tf.kernel-image-invalid"));
  auto old =
      run("I tensorflow/core/common_runtime/gpu/gpu_device.cc:1433] Found device 0 with properties: \n"
          "I tensorflow/core/common_runtime/gpu/gpu_device.cc:1483] Ignoring visible gpu device (device: 0, name: "
          "GeForce GTX 970, pci bus id: 0000:01:00.0, compute capability: 5.2) with Cuda compute capability 5.2. The "
          "minimum required Cuda capability is 6.0.\n");
  CHECK(has(old, "tf.compute-capability-too-low"));
  CHECK_FALSE(has(old, "tf.gpu-listed"));
}

TEST_CASE("real paste shapes: .wslconfig settings WSL ignores or changes") {
  auto e = run("[wsl2]\nnetworkingMode=mirrored\n\n[experimental]\nsparseVhd=true\n");
  CHECK(e.kind == "wslconfig");
  CHECK(has(e, "wslconfig.mirrored-networking"));
  CHECK(has(e, "wsl.sparse-vhd-disabled"));
  CHECK_FALSE(has(run("[wsl2]\nnetworkingMode=nat\n"), "wslconfig.mirrored-networking"));
}

TEST_CASE("real paste shapes: Keras 3 errors of mixed code") {
  auto legacy =
      run("WARNING:tensorflow:Your environment has TF_USE_LEGACY_KERAS set to True, but you do not have the tf_keras "
          "package installed. You must install it in order to use the legacy tf.keras.\n");
  CHECK(has(legacy, "tf.legacy-keras-missing"));
  CHECK(contains(find(legacy, "tf.legacy-keras-missing")->fix, "tf_keras"));
  CHECK(
      has(run("    from keras.src.engine import base_layer\nModuleNotFoundError: No module named 'keras.src.engine'\n"),
          "tf.keras-src-import"));
}

TEST_CASE("real paste shapes: pip's 'No matching distribution' alone, and quoted in prose") {
  CHECK(has(run("No matching distribution found for tensorflow-intel==2.12.0\n"), "pip.tensorflow-unavailable"));
  CHECK(has(run("Attempting to install latest TensorFlow returns \"No matching distribution found\" error.\n"),
            "pip.tensorflow-unavailable"));
}
