#include "common/diagnose/explain_engine.hpp"

#include <catch2/catch.hpp>
#include <string>

#include "common/parse/wsl_list_parser.hpp"
#include "tests/support/utf16_bytes.hpp"
#include "tests/unit/diagnose/explain_test_support.hpp"

using namespace tfwsl::diagnose;

using namespace tfwsl::test::explain;

// Empty input and garbage: explain_verdicts_test.cpp ("verdict 3"); they were "unknown, exit 0"
// and are explain.unrecognised, exit 1, now.

TEST_CASE("explain: a cuDNN mismatch in a pasted, quoted, CRLF log") {
  auto e = run(
      "> ```\r\n> $ python3 train.py\r\n> 2021-10-13 17:19:29.3: E tensorflow/stream_executor/cuda/cuda_dnn.cc:362] "
      "Loaded runtime CuDNN library: 8.0.4 but source was compiled with: 8.1.0.\r\n> ```\r\n");
  CHECK(e.kind == "tf-log");
  CHECK(has(e, "tf.cudnn-mismatch"));
  CHECK(e.facts["cudnn_runtime"] == "8.0.4");
  CHECK(exit_code_for(e) == 2);
  auto json = to_json(e);
  CHECK(json["findings"][0]["severity"] == "error");
  // Evidence quotes the line as cleaned: quote marks, fences and the prompt are gone.
  CHECK(json["findings"][0]["evidence"].get<std::string>().rfind("line 1: 2021-10-13", 0) == 0);
}

TEST_CASE("explain: information only exits 0, warnings 1") {
  auto numa =
      run("2023-07-12 14:59:25.260129: I tensorflow/compiler/xla/stream_executor/cuda/cuda_gpu_executor.cc:981] "
          "could not open file to read NUMA node: /sys/bus/pci/devices/0000:01:00.0/numa_node\n"
          "Your kernel may have been built without NUMA support.\n");
  CHECK(numa.kind == "tf-log");
  CHECK(has(numa, "tf.numa-benign"));
  CHECK(exit_code_for(numa) == 0);
  auto symlink = run("/sbin/ldconfig.real: /usr/lib/wsl/lib/libcuda.so.1 is not a symbolic link\n");
  CHECK(symlink.kind == "ldconfig");
  CHECK(has(symlink, "libcuda.not-symlink"));
  CHECK(exit_code_for(symlink) == 1);
}

TEST_CASE("explain: UTF-16LE wsl -l -v with a WSL 1 distro") {
  auto e = run(tfwsl::test::ascii_as_utf16le(
      "  NAME            STATE           VERSION\r\r\n* Legacy          Stopped         1\r\r\n"
      "  docker-desktop  Running         2\r\r\n",
      true));
  CHECK(e.kind == "wsl-list");
  CHECK(has(e, "wsl.distro-wsl1"));
  CHECK(e.facts["wsl1_distros"] == nlohmann::json({"Legacy"}));
}

TEST_CASE("explain: nvidia-smi with an old Windows driver") {
  auto e =
      run("+-----------------------------------------------------------------------------+\n"
          "| NVIDIA-SMI 515.65.01    Driver Version: 516.94       CUDA Version: 11.7     |\n"
          "|-------------------------------+----------------------+----------------------+\n");
  CHECK(e.kind == "nvidia-smi");
  CHECK(has(e, "gpu.driver-too-old"));
}

TEST_CASE("explain: requirements that pin TF 2.10 with conda CUDA") {
  auto e =
      run("name: legacy\ndependencies:\n  - python=3.9\n  - cudatoolkit=11.2\n  - cudnn=8.1.0\n  - pip:\n"
          "    - tensorflow==2.10.1\n");
  CHECK(e.kind == "requirements");
  CHECK(e.facts["tensorflow"]["spec"] == "==2.10.1");
  CHECK(has(e, "req.native-gpu-ok"));
  CHECK(has(e, "req.conda-cuda"));
  CHECK_FALSE(has(e, "req.needs-wsl"));
}

TEST_CASE("explain: text report groups findings and prints the fix") {
  auto e =
      run("W tensorflow/core/common_runtime/gpu/gpu_device.cc:2251] Cannot dlopen some GPU libraries.\n"
          "I cuda_executor.cc:1] could not open file to read NUMA node: /sys/bus/pci/devices/0000:01:00.0/numa_node\n");
  std::string text = render_text(e);
  CHECK(text.rfind("kind: tf-log\n", 0) == 0);
  auto error = text.find("\u2717 tf.dlopen-failed");
  auto info = text.find("\u2713 tf.numa-benign");
  REQUIRE(error != std::string::npos);
  REQUIRE(info != std::string::npos);
  CHECK(error < info);
  CHECK(text.find("fix: ") != std::string::npos);
}

TEST_CASE("explain: the text report is coloured like the doctor's only when asked, and -v shows the encoding") {
  auto e =
      run("W tensorflow/core/common_runtime/gpu/gpu_device.cc:2251] Cannot dlopen some GPU libraries.\n"
          "I cuda_executor.cc:1] could not open file to read NUMA node: /sys/bus/pci/devices/0000:01:00.0/numa_node\n");
  CHECK(render_text(e).find('\x1b') == std::string::npos);
  std::string coloured = render_text(e, {true, false});
  CHECK(coloured.find("\x1b[31m\u2717\x1b[0m tf.dlopen-failed") != std::string::npos);
  CHECK(coloured.find("\x1b[32m\u2713\x1b[0m tf.numa-benign") != std::string::npos);
  CHECK(render_text(e).find("encoding: ") == std::string::npos);
  CHECK(render_text(e, {false, true}).find("encoding: utf-8\n") != std::string::npos);
}

TEST_CASE("explain: a 10 MB log with a very long line stays linear and finds its message") {
  std::string log;
  std::string line =
      "2024-01-01 10:00:00.000000: I tensorflow/core/platform/cpu_feature_guard.cc:210] This TensorFlow binary is "
      "optimized.\n";
  while (log.size() < 5'000'000) log += line;
  log += std::string(3'000'000, 'a') + "\n";  // one huge line: regexes must not see all of it
  while (log.size() < 10'000'000) log += line;
  log += "E cuda_driver.cc:314] failed call to cuInit: CUDA_ERROR_NO_DEVICE: no CUDA-capable device is detected\n";
  auto e = run(log);
  CHECK(e.kind == "tf-log");
  CHECK(has(e, "tf.cuinit-no-device"));
  CHECK_FALSE(has(e, "tf.cuda-init-failed"));
}

TEST_CASE("explain: wsl -l -q prints bare names, the command says what they are") {
  auto e = run("PS C:\\Users\\me> wsl -l -q\r\nUbuntu-22.04\r\ndocker-desktop\r\n\r\nPS C:\\Users\\me>\r\n");
  CHECK(e.kind == "wsl-list");
  REQUIRE(e.facts["distros"].size() == 2);
  CHECK(e.facts["distros"][0]["name"] == "Ubuntu-22.04");
  CHECK(e.facts["distros"][0]["version"].is_null());
  CHECK(e.facts["distros"][1]["name"] == "docker-desktop");
  // The same names without the command are not taken for a distro list.
  CHECK(run("Ubuntu-22.04\ndocker-desktop\n").kind != "wsl-list");
  CHECK(tfwsl::parse::is_wsl_quiet_list_command("wsl.exe --list --quiet"));
  CHECK(tfwsl::parse::is_wsl_quiet_list_command("C:\\Windows\\System32\\wsl.exe -l -q"));
  CHECK_FALSE(tfwsl::parse::is_wsl_quiet_list_command("wsl -l -v"));
}

TEST_CASE("explain: Ubuntu's suggestion to install nvidia-utils is a warning, not a Linux driver") {
  auto suggested =
      run("$ nvidia-smi\nCommand 'nvidia-smi' not found, but can be installed with:\n\n"
          "sudo apt install nvidia-utils-535         # version 535.183.01-0ubuntu0.22.04.1\n"
          "sudo apt install nvidia-utils-470         # version 470.256.02-0ubuntu0.22.04.1\n");
  CHECK(has(suggested, "gpu.apt-suggests-nvidia-utils"));
  CHECK_FALSE(has(suggested, "libcuda.linux-driver"));
  // Once apt shows it installing, it is a Linux driver in WSL whatever came before.
  auto installed =
      run("Command 'nvidia-smi' not found, but can be installed with:\n"
          "sudo apt install nvidia-utils-535\n$ sudo apt install nvidia-utils-535\n"
          "Setting up nvidia-utils-535 (535.183.01-0ubuntu0.22.04.1) ...\n");
  CHECK(has(installed, "libcuda.linux-driver"));
  CHECK(has(run("ii  nvidia-driver-535   535.183.01-0ubuntu0.22.04.1  amd64  NVIDIA driver metapackage\n"),
            "libcuda.linux-driver"));
}

TEST_CASE("explain: nvidia-smi without libnvidia-ml or without a device handle is an error, not a pass") {
  auto no_nvml =
      run("NVIDIA-SMI couldn't find libnvidia-ml.so library in your system. Please make sure that the "
          "NVIDIA Display Driver is properly installed and present in your system.\n"
          "Please also try adding directory that contains libnvidia-ml.so to your system PATH.\n");
  CHECK(no_nvml.kind == "nvidia-smi");
  CHECK(has(no_nvml, "gpu.nvml-library-missing"));
  CHECK(exit_code_for(no_nvml) == 2);
  auto no_handle = run("$ nvidia-smi\nUnable to determine the device handle for GPU 0000:01:00.0: Unknown Error\n");
  CHECK(has(no_handle, "gpu.device-handle-error"));
  CHECK_FALSE(has(no_handle, "gpu.visible"));
  CHECK(exit_code_for(no_handle) == 2);
}

TEST_CASE("explain: a wsl --version whose Windows line was cut is not a Windows too old") {
  auto e =
      run("PS C:\\> wsl --version\n"
          "WSL version: 2.0.9.0\nKernel version: 5.15.133.1-1\nWSLg version: 1.0.59\nMSRDC version: 1.2.4677\n"
          "Direct3D version: 1.611.1-81528511\nDXCore version: 10.0.25131.1002-220531-1700.rs-onecore-base2-hyp\n"
          "Windows version: 10.0.2...\n");
  CHECK(e.kind == "wsl-version");
  CHECK_FALSE(e.facts.contains("windows_build"));
  CHECK_FALSE(has(e, "wsl.windows-too-old"));
}
