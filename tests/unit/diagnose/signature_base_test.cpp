#include "common/diagnose/signature_base.hpp"

#include <catch2/catch.hpp>
#include <map>
#include <set>
#include <string>

#include "common/compat/compat_db.hpp"
#include "common/version/version.hpp"

using namespace tfwsl::diagnose;

TEST_CASE("signature base: the built-in base loads and covers the contract's ids") {
  const auto& base = builtin_signature_base();
  REQUIRE(base);
  std::set<std::string> ids;
  for (const auto& sig : base->signatures()) {
    ids.insert(sig.id);
    INFO(sig.id);
    CHECK_FALSE(sig.summary.empty());
    // A problem has a fix; information has one only when there is something to do, never "Nothing to do".
    if (sig.severity != Severity::info) CHECK_FALSE(sig.fix.empty());
    CHECK(sig.fix.find("Nothing to do") == std::string::npos);
  }
  for (const char* id : {"wsl.cli-too-old",
                         "wsl.no-distro",
                         "wsl.distro-wsl1",
                         "wsl.kernel-missing",
                         "wsl.windows-too-old",
                         "wsl.online-list",
                         "gpu.driver-not-loaded",
                         "gpu.access-blocked",
                         "gpu.nvidia-smi-missing",
                         "gpu.tcc-mode",
                         "gpu.cuda-version-error",
                         "gpu.driver-too-old",
                         "gpu.visible",
                         "libcuda.not-symlink",
                         "libcuda.unversioned-missing",
                         "libcuda.linux-driver",
                         "tf.no-cuda-driver",
                         "tf.dlopen-failed",
                         "tf.cudnn-missing",
                         "tf.cudnn-mismatch",
                         "tf.cuinit-no-device",
                         "tf.cuda-init-failed",
                         "tf.numa-benign",
                         "tf.gpu-listed",
                         "tf.directml",
                         "wslconfig.unknown-section",
                         "wslconfig.malformed-line",
                         "wslconfig.inline-comment",
                         "wslconfig.bad-size",
                         "wslconfig.memory-low",
                         "wslconfig.custom-kernel",
                         "wslconfig.encoding",
                         "req.tensorflow-gpu",
                         "req.native-gpu-ok",
                         "req.needs-wsl",
                         "req.directml-plugin",
                         "req.conda-cuda",
                         "req.tf1"}) {
    INFO(id);
    CHECK(ids.count(id) == 1);
  }
  CHECK(base->constant("windows_driver_min") == "528.33");
}

TEST_CASE("signature base: the Windows minimums come from the compatibility data, not the signatures") {
  const auto& base = builtin_signature_base();
  REQUIRE(base);
  const auto& compat = tfwsl::builtin_compat_db();
  auto cuda_major = tfwsl::Version::parse(base->constant("cuda_min"))->major();
  CHECK(base->constant("windows_driver_min") == compat.minor_version_floor(cuda_major)->windows.to_string());
  CHECK(base->constant("windows_build_min") == std::to_string(compat.wsl_gpu_min_windows_build()));
  bool seen_driver = false, seen_build = false;
  for (const auto& sig : base->signatures()) {
    INFO(sig.id);
    CHECK(sig.summary.find("${") == std::string::npos);
    CHECK(sig.fix.find("${") == std::string::npos);
    if (sig.id == "gpu.driver-too-old" &&
        sig.summary.find("older than " + base->constant("windows_driver_min")) != std::string::npos)
      seen_driver = true;
    if (sig.fix.find("(build " + base->constant("windows_build_min") + ")") != std::string::npos) seen_build = true;
  }
  CHECK(seen_driver);
  CHECK(seen_build);
}

TEST_CASE("signature base: ${name} in a summary or fix is a constant of the document or of compat") {
  const auto& compat = tfwsl::builtin_compat_db();
  // The driver floor follows the CUDA major of the document's own cuda_min: 11.8 -> CUDA 11's.
  std::string doc =
      "constants: {cuda_min: \"11.8\", tf_first: \"2.0\"}\n"
      "signatures:\n"
      "  - {id: a.b, severity: error, kinds: [any], when: [{fact: d, windows_driver_below: $windows_driver_min}],\n"
      "     summary: \"older than ${windows_driver_min}\", fix: \"install ${windows_driver_min}, not ${tf_first}\"}\n";
  auto base = SignatureBase::load(doc, "t.yaml", &compat);
  REQUIRE(base);
  const std::string floor = compat.minor_version_floor(11)->windows.to_string();
  CHECK(floor != compat.minor_version_floor(12)->windows.to_string());
  CHECK(base->signatures()[0].summary == "older than " + floor);
  CHECK(base->signatures()[0].fix == "install " + floor + ", not 2.0");
  CHECK(base->signatures()[0].when[0].version == floor);

  auto unknown = SignatureBase::load(
      "signatures:\n  - {id: c.d, severity: info, kinds: [any], match: [x], summary: \"s ${nope}\", fix: f}\n",
      "t.yaml");
  REQUIRE_FALSE(unknown);
  CHECK(unknown.error().message.find("c.d") != std::string::npos);
  CHECK(unknown.error().message.find("nope") != std::string::npos);

  auto repeated = SignatureBase::load("constants: {cuda_min: \"12.0\", windows_driver_min: \"1.0\"}\nsignatures: []\n",
                                      "t.yaml", &compat);
  REQUIRE_FALSE(repeated);
  CHECK(repeated.error().message.find("compat.yaml") != std::string::npos);

  auto no_cuda = SignatureBase::load("signatures: []\n", "t.yaml", &compat);
  REQUIRE_FALSE(no_cuda);
  CHECK(no_cuda.error().message.find("cuda_min") != std::string::npos);
}

TEST_CASE("signature base: bad data is an error naming the file and the signature") {
  auto no_list = SignatureBase::load("constants: {}\n", "test.yaml");
  REQUIRE_FALSE(no_list);
  CHECK(no_list.error().message.find("test.yaml") != std::string::npos);
  auto bad_severity = SignatureBase::load(
      "signatures:\n  - {id: a.b, severity: fatal, kinds: [any], match: [x], summary: s, fix: f}\n", "t.yaml");
  REQUIRE_FALSE(bad_severity);
  CHECK(bad_severity.error().message.find("a.b") != std::string::npos);
  CHECK(bad_severity.error().message.find("fatal") != std::string::npos);
  auto bad_regex = SignatureBase::load(
      "signatures:\n  - id: a.b\n    severity: info\n    kinds: [any]\n    regex: [{needle: x, pattern: \"(\"}]\n    "
      "summary: s\n    fix: f\n",
      "t.yaml");
  REQUIRE_FALSE(bad_regex);
  auto unknown_constant = SignatureBase::load(
      "signatures:\n  - {id: a.b, severity: info, kinds: [any], when: [{fact: v, version_below: $nope}], summary: s, "
      "fix: f}\n",
      "t.yaml");
  REQUIRE_FALSE(unknown_constant);
  CHECK(unknown_constant.error().message.find("$nope") != std::string::npos);
  CHECK_FALSE(SignatureBase::load("signatures: [\n", "t.yaml"));
}

TEST_CASE("signature base: conditions on facts") {
  nlohmann::json facts = {{"cuda_version", "11.8"},
                          {"driver_version", "517.48"},
                          {"linux_driver", "525.60.13"},
                          {"gpu_count", 2},
                          {"failures", {{"not_found", true}}},
                          {"models", {"WDDM", "TCC"}},
                          {"package", "TensorFlow-GPU"},
                          {"empty", nlohmann::json::array()}};
  auto check = [&facts](Condition c) { return condition_holds(c, facts); };
  using T = Condition::Test;
  CHECK(check({"failures.not_found", T::is_true}));
  CHECK_FALSE(check({"failures.cannot_communicate", T::is_true}));
  CHECK(check({"failures.cannot_communicate", T::is_false}));
  CHECK(check({"gpu_count", T::at_least, 1}));
  CHECK_FALSE(check({"gpu_count", T::below, 2}));
  CHECK(check({"cuda_version", T::version_below, 0, "12.0"}));
  CHECK(check({"driver_version", T::windows_driver_below, 0, "528.33"}));
  CHECK_FALSE(check({"linux_driver", T::windows_driver_below, 0, "528.33"}));  // Linux numbering: not compared
  CHECK(check({"models", T::contains_any, 0, "", {"tcc"}}));
  CHECK(check({"package", T::in, 0, "", {"tensorflow-gpu"}}));
  CHECK(check({"empty", T::empty}));
  CHECK(check({"missing", T::absent}));
  CHECK_FALSE(check({"missing", T::nonempty}));
}
