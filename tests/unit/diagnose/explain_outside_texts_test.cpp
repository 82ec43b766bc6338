// Texts that are not what they first look like: prose and bug templates are not requirements
// files, other frameworks' errors are said to be theirs (the `about` field), an empty device list is
// a GPU count of 0, conda's name=version=build grammar, and apt's sqv rejecting a SHA1-bound
// repository key.
#include <catch2/catch.hpp>
#include <string>

#include "common/diagnose/explain_engine.hpp"
#include "common/parse/requirements_parser.hpp"
#include "common/parse/tf_log_parser.hpp"
#include "tests/unit/diagnose/explain_test_support.hpp"

using namespace tfwsl::test::explain;

TEST_CASE("explain: an install command named inside a sentence is prose, not a requirement") {
  auto e =
      run("**System information**\nOS Platform and Distribution - Windows 10 home\n"
          "TensorFlow installed using - pip install tensorflow-gpu\nTensorFlow version - 2.1.0\n"
          "Python version - 3.7.4\nGPU - NVIDIA GeForce GTX 1650\n");
  CHECK(e.kind == "unknown");
  CHECK(tfwsl::parse::parse_requirements("dlib version: whatever pip install dlib tries to install\n")
            .requirements.empty());
  // Commands stay commands: after a shell separator, a prompt, RUN, python -m, a bullet.
  for (const std::string line : {"RUN apt-get update && pip install tensorflow==2.15.1",
                                 "$ pip install tensorflow==2.15.1", "python3 -m pip install tensorflow==2.15.1",
                                 "- pip install tensorflow==2.15.1", "Install: pip install tensorflow==2.15.1"}) {
    auto parsed = tfwsl::parse::parse_requirements(line + "\n");
    const auto* tf = tfwsl::parse::find_tensorflow(parsed);
    INFO(line);
    REQUIRE(tf != nullptr);
    CHECK(tf->spec == "==2.15.1");
  }
}

TEST_CASE("explain: another framework's error says whose it is, with its GPU fact, and no TF verdict") {
  auto e = run(
      "RuntimeError: CUDA error: no kernel image is available for execution on the device\n"
      "NVIDIA GeForce RTX 5090 with CUDA capability sm_120 is not compatible with the current PyTorch installation.\n"
      "The current PyTorch install supports CUDA capabilities sm_50 sm_60 sm_70 sm_75 sm_80 sm_86 sm_90.\n");
  CHECK(e.kind == "unknown");
  CHECK(e.about == "pytorch");
  CHECK(e.facts.value("compute_capability", "") == "12.0");
  REQUIRE(has(e, "explain.not-tensorflow"));
  CHECK(contains(find(e, "explain.not-tensorflow")->summary, "12.0"));
  CHECK_FALSE(has(e, "tf.kernel-image-invalid"));
  CHECK_FALSE(has(e, "explain.unrecognised"));
  const auto json = tfwsl::diagnose::to_json(e);
  CHECK(json["about"]["subject"] == "pytorch");
  CHECK(json["about"]["name"] == "PyTorch");
  CHECK(contains(tfwsl::diagnose::render_text(e), "about: PyTorch, not TensorFlow"));
  // A bug template of dlib's that also reads as a requirements file is dlib's.
  auto d =
      run("### What Operating System(s) are you seeing this problem on?\n\nWindows\n\n### dlib version\n\n19.24\n\n"
          "### Python version\n\n3.11\n\n### Steps to Reproduce\n\npip install dlib\n");
  CHECK(d.kind == "unknown");
  CHECK(d.about == "dlib");
  // TensorFlow's own log has no `about`, and its JSON no such key: version 1's consumers see no change.
  auto t =
      run("2024-01-01 10:00:00.1: W tensorflow/core/common_runtime/gpu/gpu_device.cc:2256] Cannot dlopen some GPU "
          "libraries.\n");
  CHECK(t.about.empty());
  CHECK_FALSE(tfwsl::diagnose::to_json(t).contains("about"));
}

TEST_CASE("explain: an empty device list printed where TF was asked for it is gpu_count 0") {
  using tfwsl::parse::parse_tf_log;
  CHECK(parse_tf_log("print('GPU', tf.config.list_physical_devices('GPU'))\nGPU []\n").gpu_count == 0);
  CHECK(parse_tf_log("[ ]\n", true).gpu_count == 0);
  CHECK(parse_tf_log("W tf-trt warning\n[]\n", true).gpu_count == 0);
  CHECK_FALSE(parse_tf_log("gpus = []\nprint(tf.config.list_physical_devices('GPU'))\n").gpu_count.has_value());
  CHECK_FALSE(parse_tf_log("[]\n").gpu_count.has_value());
  // In a REPL the call is a prompt's command, which the cleaner takes out of the text.
  auto e = run(">>> import tensorflow as tf\n>>> print(tf.config.list_physical_devices('GPU'))\n[]\n>>>\n");
  CHECK(e.kind == "tf-log");
  CHECK(e.facts.value("gpu_count", -1) == 0);
  CHECK_FALSE(has(e, "tf.gpu-listed"));
}

TEST_CASE("explain: conda's name=version=build is the version, with the build apart") {
  auto e = run("conda install -c conda-forge tensorflow=2.18.1=cpu_py311h18e2dce_0 pandas=2.2.3=py311h7db5c69_1\n");
  REQUIRE(e.kind == "requirements");
  CHECK(e.facts["tensorflow"]["spec"] == "==2.18.1");
  CHECK(e.facts["tensorflow"]["build"] == "cpu_py311h18e2dce_0");
  // conda's name==version=build in an environment file, and in a list conda printed with none around it.
  auto resolve = run("name: gpu\ndependencies:\n  - python==3.6.8=h9f7ef89_0\n  - tensorflow==1.13.1=h21ff451_8\n");
  CHECK(resolve.facts["tensorflow"]["spec"] == "==1.13.1");
  CHECK(resolve.facts["tensorflow"]["build"] == "h21ff451_8");
  auto printed = run("ResolvePackageNotFound:\n  - grpcio==1.23.0=py36h3db2c7e_0\n  - tensorflow==1.13.1=h21ff451_8\n");
  CHECK(printed.kind == "requirements");
  CHECK(printed.facts["tensorflow"]["spec"] == "==1.13.1");
  CHECK(has(printed, "req.tf1"));
  auto listed =
      run("# Name                    Version                   Build  Channel\n"
          "tensorflow                2.6.2           cuda112py39h9333c2f_1    conda-forge\n"
          "tensorflow-estimator      2.6.2           cuda112py39h9333c2f_1    conda-forge\n");
  CHECK(listed.facts["tensorflow"]["spec"] == "==2.6.2");
  CHECK(listed.facts["tensorflow"]["build"] == "cuda112py39h9333c2f_1");
  // conda's fuzzy "=2.10" stays as written, with no build.
  auto fuzzy = run("dependencies:\n  - python=3.10\n  - tensorflow=2.10\n");
  CHECK(fuzzy.facts["tensorflow"]["spec"] == "=2.10");
  CHECK_FALSE(fuzzy.facts["tensorflow"].contains("build"));
}

TEST_CASE("explain: apt's sqv rejecting a SHA1-bound key names NVIDIA's and the ways out") {
  const std::string sqv = "Sub-process /usr/bin/sqv returned an error code (1), error message is: Signing key on ";
  const std::string rest =
      " is not bound:   No binding signature at time 2026-01-29T20:38:48Z   because: Policy rejected "
      "non-revocation signature (PositiveCertification) requiring second pre-image resistance   "
      "because: SHA1 is not considered secure since 2026-02-01T00:00:00Z\n";
  auto nvidia =
      run("W: OpenPGP signature verification failed: https://developer.download.nvidia.com/compute/cuda/repos/"
          "ubuntu2404/x86_64  InRelease: " +
          sqv + "EB693B3035CD5710E231E123A4B469963BF863CC" + rest);
  REQUIRE(has(nvidia, "apt.sha1-key-rejected"));
  CHECK(nvidia.facts["apt_key"]["owner"] == "NVIDIA CUDA repository");
  CHECK(contains(find(nvidia, "apt.sha1-key-rejected")->summary, "NVIDIA"));
  CHECK(contains(find(nvidia, "apt.sha1-key-rejected")->fix, "pip"));
  auto other = run(sqv + "f23c5a6cf475977595c89f51ba6932366a755776" + rest);
  REQUIRE(has(other, "apt.sha1-key-rejected"));
  CHECK(other.facts["apt_key"]["fingerprint"] == "F23C5A6CF475977595C89F51BA6932366A755776");
  CHECK_FALSE(other.facts["apt_key"].contains("owner"));
  CHECK_FALSE(contains(find(other, "apt.sha1-key-rejected")->summary, "NVIDIA"));
}

TEST_CASE("explain: installers' forms and conda's are read wherever they stand") {
  // pip's own options before its verb.
  auto parsed = tfwsl::parse::parse_requirements("RUN pip3 --no-cache-dir install tensorflow==2.16.1\n");
  const auto* tf = tfwsl::parse::find_tensorflow(parsed);
  REQUIRE(tf != nullptr);
  CHECK(tf->spec == "==2.16.1");
  // A `conda list` row amid prose, and a channel::name=version=build in a code span.
  auto row = run("Here is what I have:\ntensorflow                2.18.1          cpu_py311h18e2dce_0\n");
  REQUIRE(row.facts.contains("tensorflow"));
  CHECK(row.facts["tensorflow"]["spec"] == "==2.18.1");
  CHECK(row.facts["tensorflow"]["build"] == "cpu_py311h18e2dce_0");
  auto span =
      run("This line of the template fails:\n\n`anaconda::tensorflow=1.12.0=mkl_py36h69b6ba0_0`\n\nPlease fix.\n");
  CHECK(span.kind == "requirements");
  REQUIRE(span.facts.contains("tensorflow"));
  CHECK(span.facts["tensorflow"]["spec"] == "==1.12.0");
  // Poetry's resolver failing is its output, not a requirements file, although it lists packages.
  auto poetry =
      run("(py310) PS > poetry add tensorflow tensorflow-text\n"
          "The current project's supported Python range (>=3.10,<4.0) is not compatible with some of the required "
          "packages Python requirement:\n"
          "  - tensorflow-io-gcs-filesystem requires Python >=3.7, <3.12, so it will not be satisfied for Python "
          ">=3.12,<4.0\n");
  CHECK(poetry.kind == "unknown");
  CHECK(has(poetry, "pip.tfio-gcs-unavailable"));
  CHECK_FALSE(has(poetry, "pip.tensorflow-unavailable"));
  // The tensorflow-gpu placeholder's box, from any installer.
  auto box =
      run("Exception:\n  The \"tensorflow-gpu\" package has been removed!\n  Please install \"tensorflow\" instead.\n");
  CHECK(has(box, "req.tensorflow-gpu"));
  auto key =
      run("W: GPG error: https://developer.download.nvidia.com/compute/cuda/repos/wsl-ubuntu/x86_64  InRelease: The "
          "following signatures couldn't be verified because the public key is not available: NO_PUBKEY "
          "A4B469963BF863CC\n");
  CHECK(has(key, "apt.nvidia-key-missing"));
}

TEST_CASE("explain: a .wslconfig pasted above prose is the file, its malformed lines still found") {
  auto e =
      run("With the following .wslconfig:\n[wsl2]\nmemory=16GB\n\nrun WSL 2.\n![image](https://example.org/a.png)\n");
  CHECK(e.kind == "wslconfig");
  CHECK_FALSE(has(e, "wslconfig.malformed-line"));
  // A line of the file itself (no blank line before it) stays a finding.
  auto bad = run("[wsl2]\nmemory=16GB\nprocessors 4\n");
  CHECK(has(bad, "wslconfig.malformed-line"));
  // networkingMode under the old [experimental] header, where WSL still reads it.
  auto mirrored = run("[wsl2]\nmemory=16GB\n[experimental]\nnetworkingMode=mirrored\n");
  CHECK(has(mirrored, "wslconfig.mirrored-networking"));
}

TEST_CASE("explain: the Windows build beside a wsl list, XLA without ptxas, a template's [WSL2]") {
  auto list =
      run("Version\t10.0.19041 Build 19041\n\nC:\\>wsl -l -v\n  NAME            STATE           VERSION\n"
          "* Ubuntu-20.04    Stopped         1\n");
  CHECK(list.kind == "wsl-list");
  CHECK(list.facts.value("windows_build", 0) == 19041);
  CHECK(has(list, "wsl.windows-too-old"));
  auto xla =
      run("2025-05-31 19:37:00.138606: W tensorflow/core/framework/op_kernel.cc:1855] OP_REQUIRES failed at "
          "xla_ops.cc:590 : UNAVAILABLE: No PTX compilation provider is available. Neither ptxas/nvlink nor nvjtlink "
          "is available.\n");
  CHECK(has(xla, "tf.libdevice-missing"));
  auto ldconfig =
      run("**Describe the issue**\n\nldconfig: /usr/lib/wsl/lib/libcuda.so.1 is not a symbolic link\n\n"
          "**Enviroment:**\n - Windows build number: [10.0.22000.194]\n - WSL version 1/2: [WSL2]\n");
  CHECK(ldconfig.kind == "ldconfig");
  CHECK_FALSE(has(ldconfig, "wslconfig.malformed-line"));
}

TEST_CASE("explain: a pyproject.toml pasted under a sentence is the file from its first table") {
  const std::string toml =
      "[tool.poetry]\nname = \"tf-project\"\n\n[tool.poetry.dependencies]\npython = \">=3.9, <3.12\"\n\n"
      "[tool.poetry.group.tensorflow.dependencies]\ntensorflow = {version = \"^2.13.0\" }\n";
  for (const std::string& paste : {"Thank you, here it is.\n\ntoml:\n\n" + toml, "toml:\n```toml\n" + toml + "```\n"}) {
    auto parsed = tfwsl::parse::parse_requirements(paste);
    const auto* tf = tfwsl::parse::find_tensorflow(parsed);
    INFO(paste);
    REQUIRE(tf != nullptr);
    CHECK(tf->spec == "^2.13.0");
  }
}
