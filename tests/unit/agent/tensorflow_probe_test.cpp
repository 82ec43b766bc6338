// The TensorFlow check driven through its failure modes and its success by a stand-in "python":
// a real shell script that prints a real TensorFlow log from tests/fixtures on stderr and the
// probe's JSON on stdout, run by the real process runner.
#include <sys/stat.h>

#include <catch2/catch.hpp>

#include "common/judge/assess.hpp"
#include "tests/support/report_lookup.hpp"
#include "tests/unit/agent/fake_machine.hpp"

using namespace tfwsl;
using namespace tfwsl::linux_checks;
using namespace tfwsl::judge;
using tfwsl::test::FakeMachine;

namespace {

// Writes <dir>/python: "--version" answers, anything else prints the fixture's body (the text below
// its "---" line) on stderr, then `json` on stdout, then exits with `exit_code` after `sleep_s`.
std::string make_stand_in(const std::filesystem::path& dir, const std::string& fixture, const std::string& json,
                          int exit_code = 0, int sleep_s = 0) {
  auto path = dir / "python";
  std::string script =
      "#!/bin/sh\n"
      "if [ \"$1\" = --version ]; then echo 'Python 3.10.12'; exit 0; fi\n";
  if (!fixture.empty()) script += "sed '1,/^---$/d' '" + fixture + "' >&2\n";
  if (sleep_s) script += "exec sleep " + std::to_string(sleep_s) + "\n";  // exec: the kill reaches it
  if (!json.empty()) script += "cat <<'JSON'\n" + json + "\nJSON\n";
  script += "exit " + std::to_string(exit_code) + "\n";
  tfwsl::test::write_file(path, script);
  ::chmod(path.c_str(), 0755);
  return path.string();
}

std::optional<std::string> fixture(const std::string& name) { return (tfwsl::test::fixtures_dir() / name).string(); }

Report run_with(FakeMachine& m, const std::string& python,
                std::chrono::milliseconds tf_timeout = std::chrono::seconds(20)) {
  auto env = m.env();
  env.runner = std::make_shared<SystemProcessRunner>();
  env.python = python;
  env.tf_timeout = tf_timeout;
  return assess(gather_facts(env), CheckPolicy{});
}

const char* k_no_gpu_json =
    R"({"installed": true, "version": "2.16.1", "build": {"cuda_version": "12.3", "cudnn_version": "8", "is_cuda_build": true}, "gpus": []})";

}  // namespace

TEST_CASE("TF check: libraries that cannot be dlopen'ed (real log)", "[tf][fixtures]") {
  auto log = fixture("tf-gpu-log-01.txt");
  FakeMachine m;
  auto report = run_with(m, make_stand_in(m.dir.path(), *log, k_no_gpu_json));
  CHECK(tfwsl::test::require_check(report, "python.version").status == CheckStatus::ok);
  CHECK(tfwsl::test::require_check(report, "tf.installed").status == CheckStatus::ok);
  CHECK(tfwsl::test::require_check(report, "tf.installed").summary == "TensorFlow 2.16.1");
  CHECK(tfwsl::test::require_check(report, "tf.build").status == CheckStatus::ok);
  CHECK(tfwsl::test::require_check(report, "tf.build").summary == "built for CUDA 12.3, cuDNN 8");
  const auto& gpu = tfwsl::test::require_check(report, "tf.gpu");
  CHECK(gpu.status == CheckStatus::fail);
  CHECK(gpu.summary.find("Cannot dlopen some GPU libraries") != std::string::npos);
}

TEST_CASE("TF check: cuInit finds no device (real log)", "[tf][fixtures]") {
  auto log = fixture("tf-gpu-log-19.txt");
  FakeMachine m;
  auto report = run_with(m, make_stand_in(m.dir.path(), *log, k_no_gpu_json));
  CHECK(tfwsl::test::require_check(report, "tf.gpu").status == CheckStatus::fail);
  CHECK(tfwsl::test::require_check(report, "tf.gpu").summary.find("CUDA_ERROR_NO_DEVICE") != std::string::npos);
}

TEST_CASE("TF check: cuDNN version mismatch (real log)", "[tf][fixtures]") {
  auto log = fixture("tf-gpu-log-09.txt");
  FakeMachine m;
  auto json =
      R"({"installed": true, "version": "2.18.0", "build": {"cuda_version": "12.5.1", "cudnn_version": "9"}, "gpus": ["/physical_device:GPU:0"], "error": "InternalError: DNN library initialization failed"})";
  auto report = run_with(m, make_stand_in(m.dir.path(), *log, json));
  const auto& gpu = tfwsl::test::require_check(report, "tf.gpu");
  CHECK(gpu.status == CheckStatus::fail);
  CHECK(gpu.summary.find("did not run on GPU:0") != std::string::npos);
  CHECK(gpu.summary.find("DNN library initialization failed") != std::string::npos);
}

TEST_CASE("TF check: success, GPU listed and the matmul ran on GPU:0 (real log)", "[tf][fixtures]") {
  auto log = fixture("tf-gpu-log-21.txt");
  FakeMachine m;
  auto json =
      R"({"installed": true, "version": "2.15.1", "build": {"cuda_version": "12.2", "cudnn_version": "8", "cuda_compute_capabilities": ["sm_50", "sm_60", "sm_70", "sm_80", "compute_90"], "is_cuda_build": true}, "gpus": ["/physical_device:GPU:0"], "matmul_device": "/job:localhost/replica:0/task:0/device:GPU:0"})";
  auto report = run_with(m, make_stand_in(m.dir.path(), *log, json));
  CHECK(tfwsl::test::require_check(report, "tf.installed").status == CheckStatus::ok);
  CHECK(tfwsl::test::require_check(report, "tf.gpu").status == CheckStatus::ok);
  CHECK(tfwsl::test::require_check(report, "tf.gpu").summary.find("GPU:0") != std::string::npos);
}

TEST_CASE("TF check: not installed, a crash, and a hang", "[tf]") {
  FakeMachine m;
  SECTION("not installed") {
    auto report = run_with(
        m,
        make_stand_in(
            m.dir.path(), "",
            R"({"installed": false, "error": "import tensorflow failed: ModuleNotFoundError: No module named 'tensorflow'"})"));
    CHECK(tfwsl::test::require_check(report, "tf.installed").status == CheckStatus::fail);
    CHECK(tfwsl::test::require_check(report, "tf.installed").summary.find("No module named 'tensorflow'") !=
          std::string::npos);
    CHECK(tfwsl::test::require_check(report, "tf.gpu").status == CheckStatus::skip);
  }
  SECTION("crash while importing") {
    auto report = run_with(m, make_stand_in(m.dir.path(), "", "", 139));
    CHECK(tfwsl::test::require_check(report, "tf.installed").status == CheckStatus::fail);
    CHECK(tfwsl::test::require_check(report, "tf.installed").summary.find("without a result") != std::string::npos);
  }
  SECTION("hang past the limit") {
    auto start = std::chrono::steady_clock::now();
    auto report = run_with(m, make_stand_in(m.dir.path(), "", "{}", 0, 30), std::chrono::seconds(1));
    CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(20));
    CHECK(tfwsl::test::require_check(report, "tf.installed").status == CheckStatus::fail);
    CHECK(tfwsl::test::require_check(report, "tf.installed").summary.find("ran past") != std::string::npos);
  }
}
