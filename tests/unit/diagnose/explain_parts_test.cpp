#include <catch2/catch.hpp>
#include <string>

#include "common/diagnose/explain_engine.hpp"
#include "tests/unit/diagnose/explain_test_support.hpp"

using namespace tfwsl::diagnose;
using namespace tfwsl::test::explain;

// A paste of several outputs (issue 44, item 4): every part reported, the lead's fields on top.

namespace {

const std::string k_wsl_version =
    "WSL version: 2.0.9.0\n"
    "Kernel version: 5.15.133.1-1\n"
    "WSLg version: 1.0.59\n"
    "MSRDC version: 1.2.4677\n"
    "Direct3D version: 1.611.1-81528511\n"
    "DXCore version: 10.0.25131.1002-230914-1200.rs-onecore-base2-hyp\n"
    "Windows version: 10.0.22631.2428\n";

const std::string k_wsl_list_v1 =
    "  NAME            STATE           VERSION\n"
    "* Ubuntu-22.04    Stopped         1\n";

const std::string k_wsl_list_v2 =
    "  NAME            STATE           VERSION\n"
    "* Ubuntu-22.04    Running         2\n";

}  // namespace

TEST_CASE("explain parts: two commands' outputs are two parts in text order") {
  auto e = run("PS C:\\> wsl --version\n" + k_wsl_version + "PS C:\\> wsl -l -v\n" + k_wsl_list_v2);
  REQUIRE(e.parts.size() == 2);
  CHECK(e.parts[0].kind == "wsl-version");
  CHECK(e.parts[0].facts["wsl_version"] == "2.0.9.0");
  CHECK(e.parts[0].first_line == 1);
  CHECK(e.parts[0].last_line == 7);
  CHECK(e.parts[1].kind == "wsl-list");
  CHECK(e.parts[1].facts["distros"][0]["name"] == "Ubuntu-22.04");
  CHECK(e.parts[1].first_line == 8);
  // One lead, the part of the top-level kind.
  CHECK((e.parts[0].lead != e.parts[1].lead));
  CHECK(e.parts[e.parts[0].lead ? 0 : 1].kind == e.kind);
  auto json = to_json(e);
  REQUIRE(json.contains("parts"));
  CHECK(json["parts"][1]["lines"]["first"] == 8);
  CHECK(contains(render_text(e), "parts: 2 outputs in this paste"));
}

TEST_CASE("explain parts: the part with the worse finding leads, and its finding sets the exit") {
  // wsl -l -v (a WSL 1 distribution) first, then a healthy wsl --version typed last: the command
  // typed last would win a tie, but the WSL 1 distribution is the problem.
  auto e = run("$ wsl.exe -l -v\n" + k_wsl_list_v1 + "$ wsl.exe --version\n" + k_wsl_version);
  REQUIRE(e.parts.size() == 2);
  CHECK(e.kind == "wsl-list");
  CHECK(has(e, "wsl.distro-wsl1"));
  CHECK(e.parts[0].lead);
  CHECK_FALSE(e.parts[1].lead);
  CHECK(exit_code_for(e) == 2);
}

TEST_CASE("explain parts: a new command's output of the same kind is a part of its own") {
  auto e = run("PS C:\\> wsl -l -v\n" + k_wsl_list_v1 + "PS C:\\> wsl --set-version Ubuntu-22.04 2\n" +
               "Conversion complete.\n" + "PS C:\\> wsl -l -v\n" + k_wsl_list_v2);
  REQUIRE(e.parts.size() == 2);
  CHECK(e.parts[0].facts["distros"][0]["version"] == 1);
  CHECK(e.parts[1].facts["distros"][0]["version"] == 2);
}

TEST_CASE("explain parts: an output with a blank line after every line is one part") {
  std::string spaced;
  for (std::size_t at = 0, end; (end = k_wsl_version.find('\n', at)) != std::string::npos; at = end + 1)
    spaced += k_wsl_version.substr(at, end - at) + " \n\n";
  auto e = run("C:\\Users\\me>wsl --version \n\n" + spaced + "C:\\Users\\me>wsl -l -v \n\n" + k_wsl_list_v2);
  REQUIRE(e.parts.size() == 2);
  CHECK(e.parts[0].kind == "wsl-version");
  CHECK(e.parts[0].facts["windows_version"] == "10.0.22631.2428");
}

TEST_CASE("explain parts: one output, or a template's rows beside it, has no parts") {
  CHECK(run(k_wsl_version).parts.empty());
  // An issue template's environment rows name two of wsl --version's labels: not an output.
  auto e =
      run("2024-01-05 10:00:00.000000: I tensorflow/core/platform/cpu_feature_guard.cc:182] This TensorFlow binary "
          "is optimized to use available CPU instructions in performance-critical operations.\n"
          "2024-01-05 10:00:01.000000: W tensorflow/compiler/tf2tensorrt/utils/py_utils.cc:38] TF-TRT Warning: "
          "Could not find TensorRT\n\n"
          "Environment\nGPU Type: 4080 Laptop GPU\nPython Version: 3.10.13\nTensorFlow Version: 2.15.0\n"
          "WSL version: 2.0.14.0\nKernel version: 5.15.133.1-1\n");
  CHECK(e.kind == "tf-log");
  CHECK(e.parts.empty());
  CHECK_FALSE(to_json(e).contains("parts"));
  // A template's "OS = Linux" and "python = 3.10" rows are not a requirements file.
  auto rows =
      run("OS = Linux Ubuntu 22.04 LTS\npython = 3.10.12\nCUDA = 12.4\n\n$ python3 -c \"import tensorflow as tf; "
          "print(tf.config.list_physical_devices('GPU'))\"\n[]\n");
  CHECK(rows.parts.empty());
}
