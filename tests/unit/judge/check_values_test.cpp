// The judge's verdicts carry the versions and numbers their summaries quote as `values`
// (common/judge/check_values.cpp), and nothing the facts do not hold.
#include <catch2/catch.hpp>

#include "common/judge/assess.hpp"
#include "tests/support/judge_inputs.hpp"
#include "tests/support/report_lookup.hpp"

using namespace tfwsl;
using namespace tfwsl::judge;
using agent_api::LinuxFacts;
using tfwsl::test::require_check;

TEST_CASE("cuda.toolkit's values: the toolkit in the wanted series, all of them, and the series wanted", "[judge]") {
  LinuxFacts f;
  f.stack.toolkits = {{"/usr/local/cuda-13.0", "13.0.48"}, {"/usr/local/cuda-12.2", "12.2.140"}};
  auto r = require_check(assess(f, test::default_check_policy()), "cuda.toolkit");
  CHECK(r.values["version"] == "12.2.140");
  CHECK(r.values["path"] == "/usr/local/cuda-12.2");
  CHECK(r.values["versions"] == nlohmann::json({"13.0.48", "12.2.140"}));
  CHECK(r.values["wanted"] == "12.2");
  f.stack.toolkits.clear();
  r = require_check(assess(f, test::default_check_policy()), "cuda.toolkit");
  CHECK(r.values == nlohmann::json({{"wanted", "12.2"}}));
}

TEST_CASE("memory, disk, Python and TensorFlow verdicts carry their numbers as fields", "[judge]") {
  LinuxFacts f;
  f.system.mem_total_kb = 16318712;
  f.system.disk_free_bytes = 3ull << 30;
  f.stack.python_version = "3.10.12";
  f.stack.python_path = "/usr/bin/python3";
  f.tf.ran = f.tf.installed = true;
  f.tf.version = "2.15.1";
  f.stack.cudnn_found = true;
  f.stack.cudnn_library = "/usr/lib/x86_64-linux-gnu/libcudnn.so.8";
  f.stack.cudnn_version = 8906;
  const auto report = assess(f, test::default_check_policy());
  CHECK(require_check(report, "mem.effective").values["mem_total_kb"] == 16318712);
  auto disk = require_check(report, "disk.free");
  CHECK(disk.status == CheckStatus::fail);
  CHECK(disk.values["free_bytes"] == (3ull << 30));
  CHECK(disk.values["fail_below_bytes"] == (5ull << 30));
  auto python = require_check(report, "python.version");
  CHECK(python.values["version"] == "3.10.12");
  CHECK(python.values.contains("min"));
  CHECK(require_check(report, "tf.installed").values == nlohmann::json({{"version", "2.15.1"}, {"wanted", "2.15.*"}}));
  CHECK(require_check(report, "cudnn").values["version"] == "8.9.6");
  CHECK(require_check(report, "linux.dxg").values.empty());
}

TEST_CASE("a fact the agent did not report is an absent key, not an empty one", "[judge]") {
  const auto report = assess(LinuxFacts{}, test::default_check_policy());
  CHECK(require_check(report, "mem.effective").values.empty());
  CHECK(require_check(report, "disk.free").values.empty());
  CHECK(require_check(report, "python.version").values.empty());
  CHECK(require_check(report, "tf.installed").values.empty());
  CHECK(require_check(report, "cudnn").values.empty());
}
