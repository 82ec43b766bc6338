#include "common/compat/compat_db.hpp"

#include <catch2/catch.hpp>

#include "common/resources/embedded_resources.hpp"
#include "tests/support/test_environment.hpp"

using namespace tfwsl;

// Each test pins one family of facts (each cited at its public source in profiles/compat.yaml)
// against the built-in data.

namespace {
const CompatDb& db() { return builtin_compat_db(); }
const TfRelease& tf(const char* release) {
  const TfRelease* r = db().find_tf_release(version_literal(release));
  REQUIRE(r != nullptr);
  return *r;
}
std::vector<std::string> allowed(const char* spec) {
  std::vector<std::string> out;
  for (const auto* r : db().allowed_tf_releases(*VersionSpec::parse(spec))) out.push_back(r->release.to_string());
  return out;
}
std::string linux_min(const char* cuda) {
  return db().driver_minimum_for_cuda(version_literal(cuda))->linux.to_string();
}
std::string windows_min(const char* cuda) {
  return db().driver_minimum_for_cuda(version_literal(cuda))->windows->to_string();
}
}  // namespace

TEST_CASE("TensorFlow 2.9-2.21 -> Python range, CUDA, cuDNN", "[compat]") {
  struct Row {
    const char* tf;
    const char* python;
    const char* cuda;
    const char* cudnn;
  };
  const Row rows[] = {
      {"2.21", "3.10-3.13", "12.5", "9.3"}, {"2.20", "3.9-3.13", "12.5", "9.3"}, {"2.19", "3.9-3.12", "12.5", "9.3"},
      {"2.18", "3.9-3.12", "12.5", "9.3"},  {"2.17", "3.9-3.12", "12.3", "8.9"}, {"2.16", "3.9-3.12", "12.3", "8.9"},
      {"2.15", "3.9-3.11", "12.2", "8.9"},  {"2.14", "3.9-3.11", "11.8", "8.7"}, {"2.13", "3.8-3.11", "11.8", "8.6"},
      {"2.12", "3.8-3.11", "11.8", "8.6"},  {"2.11", "3.7-3.10", "11.2", "8.1"}, {"2.10", "3.7-3.10", "11.2", "8.1"},
      {"2.9", "3.7-3.10", "11.2", "8.1"},
  };
  REQUIRE(db().tf_releases().size() == std::size(rows));
  for (const Row& row : rows) {
    INFO(row.tf);
    CHECK(tf(row.tf).python.to_string() == row.python);
    CHECK(tf(row.tf).cuda.to_string() == row.cuda);
    CHECK(tf(row.tf).cudnn.to_string() == row.cudnn);
  }
  CHECK(tf("2.16").first_version.to_string() == "2.16.1");  // "released as TF 2.16.1 (instead of 2.16.0)"
  CHECK(db().find_tf_release(version_literal("2.15.1")) == &tf("2.15"));
  CHECK(db().find_tf_release(version_literal("2.22")) == nullptr);
  CHECK(db().find_tf_release(version_literal("2.8")) == nullptr);
  CHECK(tf("2.15").python.contains(version_literal("3.11.4")));
  CHECK_FALSE(tf("2.15").python.contains(version_literal("3.12")));
  CHECK(tf("2.16").python.contains(version_literal("3.12")));
  CHECK_FALSE(tf("2.21").python.contains(version_literal("3.9")));
}

TEST_CASE("which TensorFlow releases support a Python", "[compat]") {
  auto releases = [](const char* py) {
    std::vector<std::string> out;
    for (const auto* r : db().tf_releases_for_python(version_literal(py))) out.push_back(r->release.to_string());
    return out;
  };
  CHECK(releases("3.12") == std::vector<std::string>{"2.16", "2.17", "2.18", "2.19", "2.20", "2.21"});
  CHECK(releases("3.13") == std::vector<std::string>{"2.20", "2.21"});
  CHECK(releases("3.10").size() == 13);
  CHECK(releases("3.14").empty());
}

TEST_CASE("the native-Windows GPU table ends at 2.10", "[compat]") {
  CHECK(db().last_native_windows_gpu_release().to_string() == "2.10");
  const auto* last = db().find_native_windows_gpu(version_literal("2.10.1"));
  REQUIRE(last != nullptr);
  CHECK(last->cuda.to_string() == "11.2");
  CHECK(last->cudnn.to_string() == "8.1");
  CHECK(last->python.to_string() == "3.7-3.10");
  CHECK(db().find_native_windows_gpu(version_literal("2.11")) == nullptr);
  CHECK(db().find_native_windows_gpu(version_literal("2.4"))->cuda.to_string() == "11.0");
  CHECK(db().find_native_windows_gpu(version_literal("2.0"))->cudnn.to_string() == "7.4");
  CHECK(db().native_windows_gpu().size() == 11);
}

TEST_CASE("native GPU fit of a requirement: <= 2.10 native, >= 2.11 WSL, or mixed", "[compat]") {
  auto fit = [](const char* spec) { return db().native_gpu_fit(*VersionSpec::parse(spec)); };
  CHECK(fit("<2.11") == NativeGpuFit::native_ok);
  CHECK(fit("==2.10.*") == NativeGpuFit::native_ok);
  CHECK(fit("==2.5.0") == NativeGpuFit::native_ok);
  CHECK(fit(">=2.11") == NativeGpuFit::needs_wsl);
  CHECK(fit("==2.15.1") == NativeGpuFit::needs_wsl);
  CHECK(fit(">=2.9,<2.16") == NativeGpuFit::mixed);
  CHECK(fit("") == NativeGpuFit::mixed);
  CHECK(fit("==3.0") == NativeGpuFit::none);
  CHECK(std::string(to_string(NativeGpuFit::needs_wsl)) == "needs_wsl");
}

TEST_CASE("which TF releases a specifier allows", "[compat]") {
  CHECK(allowed("==2.10.*") == std::vector<std::string>{"2.10"});
  CHECK(allowed(">=2.12,<2.16") == std::vector<std::string>{"2.12", "2.13", "2.14", "2.15"});
  CHECK(allowed("~=2.15.0") == std::vector<std::string>{"2.15"});
  CHECK(allowed("<2.11") == std::vector<std::string>{"2.9", "2.10"});
  CHECK(allowed("!=2.15.0").size() == 13);  // 2.15.1 is still allowed
  CHECK(allowed("!=2.15.*").size() == 12);
  CHECK(allowed("==2.16.0").empty());  // there is no 2.16.0
  CHECK(allowed("==2.16.1") == std::vector<std::string>{"2.16"});
  CHECK(allowed(">=2.20") == std::vector<std::string>{"2.20", "2.21"});
  CHECK(allowed("==1.15").empty());
}

TEST_CASE("and-cuda from 2.14, tensorflow-gpu removed in 2.12, compute capability 6.0 from 2.17", "[compat]") {
  CHECK(db().and_cuda_extra_from().to_string() == "2.14");
  CHECK(tf("2.14").and_cuda_extra);
  CHECK_FALSE(tf("2.13").and_cuda_extra);
  CHECK(db().tensorflow_gpu_removed_in().to_string() == "2.12");
  CHECK(tf("2.11").tensorflow_gpu_package);
  CHECK_FALSE(tf("2.12").tensorflow_gpu_package);
  for (const auto& r : db().tf_releases()) {
    INFO(r.release.to_string());
    if (r.release >= version_literal("2.17"))
      CHECK(r.min_compute_capability.to_string() == "6.0");
    else
      CHECK(r.min_compute_capability < version_literal("6.0"));
  }
}

TEST_CASE("CUDA toolkit -> minimum Linux and Windows driver", "[compat]") {
  CHECK(linux_min("12.2") == "535.54.03");
  CHECK(windows_min("12.2") == "536.25");
  CHECK(linux_min("12.2.2") == "535.104.05");
  CHECK(windows_min("12.2.2") == "537.13");
  CHECK(linux_min("12.3") == "545.23.06");
  CHECK(windows_min("12.3") == "545.84");
  CHECK(linux_min("12.5") == "555.42.02");
  CHECK(windows_min("12.5") == "555.85");
  CHECK(linux_min("11.8") == "520.61.05");
  CHECK(windows_min("11.8") == "520.06");  // lower than Linux: never compare across systems
  CHECK(linux_min("11.2") == "460.27.03");
  CHECK(windows_min("11.2") == "460.82");
  CHECK(linux_min("12.0") == "525.60.13");
  CHECK(windows_min("12.0.1") == "528.33");
  CHECK(linux_min("11.0") == "450.51.05");  // 11.0's GA is 11.0.2
  CHECK(linux_min("10.2") == "440.33");
  CHECK(linux_min("13.2.2") == "595.71.05");
  CHECK_FALSE(db().driver_minimum_for_cuda(version_literal("13.0"))->windows.has_value());
  auto missing = db().driver_minimum_for_cuda(version_literal("12.7"));
  REQUIRE_FALSE(missing);
  CHECK(missing.error().code == ErrorCode::not_found);
  auto unknown_update = db().driver_minimum_for_cuda(version_literal("12.2.9"));
  REQUIRE_FALSE(unknown_update);
  CHECK(unknown_update.error().message.find("12.2.2") != std::string::npos);
}

TEST_CASE("CUDA minor-version compatibility floor", "[compat]") {
  auto twelve = db().minor_version_floor(12);
  REQUIRE(twelve);
  CHECK(twelve->linux.to_string() == "525.60.13");
  CHECK(twelve->windows.to_string() == "528.33");
  CHECK(*parse_driver_version("31.0.15.3758") >= twelve->windows);  // 537.58 runs every CUDA 12 TF
  CHECK(*parse_driver_version("527.41") < twelve->windows);
  auto eleven = db().minor_version_floor(11);
  REQUIRE(eleven);
  CHECK(eleven->linux.to_string() == "450.80.02");
  CHECK(eleven->windows.to_string() == "452.39");
  CHECK_FALSE(db().minor_version_floor(10));
}

TEST_CASE("Ubuntu release -> python3, and the WSL distro names", "[compat]") {
  auto py = [](const char* distro) {
    auto u = db().ubuntu_release_of_distro(distro);
    REQUIRE(u);
    return db().ubuntu_default_python(*u)->to_string();
  };
  CHECK(py("Ubuntu-22.04") == "3.10");
  CHECK(py("Ubuntu-24.04") == "3.12");
  CHECK(py("Ubuntu-26.04") == "3.14");
  CHECK(py("Ubuntu-20.04") == "3.8");
  CHECK(py("ubuntu-24.04") == "3.12");
  CHECK(py("Ubuntu") == "3.14");  // plain Ubuntu is 26.04 since 2026-08-06
  CHECK(db().wsl_default_ubuntu() == version_literal("26.04"));
  CHECK_FALSE(db().ubuntu_release_of_distro("Debian"));
  CHECK_FALSE(db().ubuntu_release_of_distro("Ubuntu-24.04-dev"));
  CHECK_FALSE(db().ubuntu_release_of_distro("Ubuntu-"));
}

TEST_CASE("GPU in WSL 2 needs Windows 10 21H2, build 19044, or later") {
  CHECK(db().wsl_gpu_min_windows_build() == 19044);
}

TEST_CASE("the compatibility data is built in and can be replaced from a file", "[compat]") {
  REQUIRE(embedded_resource("compat.yaml"));
  CHECK_FALSE(embedded_resource("no-such.yaml"));
  test::TempDir dir;
  const auto path = dir.path() / "compat.yaml";
  std::string text(*embedded_resource("compat.yaml"));
  // An override file of the same shape: pretend 2.15 moved to CUDA 12.3.
  const std::string from = "{ release: \"2.15\", first_version: \"2.15.0\", python: \"3.9-3.11\", cuda: \"12.2\"";
  const auto at = text.find(from);
  REQUIRE(at != std::string::npos);
  text.replace(at, from.size(), "{ release: \"2.15\", first_version: \"2.15.0\", python: \"3.9-3.11\", cuda: \"12.3\"");
  test::write_file(path, text);
  auto loaded = load_compat_db(path);
  REQUIRE(loaded);
  CHECK(loaded->find_tf_release(version_literal("2.15"))->cuda.to_string() == "12.3");
  CHECK(load_compat_db(dir.path() / "missing.yaml").error().code == ErrorCode::not_found);
}

TEST_CASE("a broken compatibility file lists every problem with file:line:col", "[compat]") {
  const std::string text =
      "schema: 1\n"
      "tensorflow:\n"
      "  - { release: \"2.15\", first_version: \"2.15.0\", python: \"3.11-3.9\", cuda: \"12.2\", cudnn: \"8.9\", "
      "min_compute_capability: \"5.0\" }\n"
      "  - { relase: \"2.16\" }\n"
      "packaging: { and_cuda_extra_from: \"2.14\", tensorflow_gpu_removed_in: \"2.12\" }\n"
      "native_windows_gpu: { last_release: \"2.10\", releases: [] }\n"
      "cuda_drivers: [ { cuda: \"12.2\", linux: \"535.54.03\", windows: ~ }, { cuda: \"12.3.0\", linux: \"535\", "
      "windows: ~ } ]\n"
      "cuda_minor_version_floor: []\n"
      "ubuntu_python: []\n"
      "wsl_default_ubuntu: \"26.04\"\n";
  auto db = CompatDb::from_yaml(text, "my-compat.yaml");
  REQUIRE_FALSE(db);
  const std::string& m = db.error().message;
  CHECK(m.find("my-compat.yaml:3:") != std::string::npos);  // inverted python range
  CHECK(m.find("my-compat.yaml:4:7: unknown key 'relase' (did you mean 'release'?)") != std::string::npos);
  CHECK(m.find("last_release 2.10 is not among") != std::string::npos);
  CHECK(m.find("12.2.0") != std::string::npos);  // cuda must be a full version
  CHECK(m.find("invalid NVIDIA driver version '535'") != std::string::npos);
  CHECK(CompatDb::from_yaml("tensorflow: [", "x.yaml").error().message.find("x.yaml:") == 0);
  CHECK(CompatDb::from_yaml("- a", "x.yaml").error().code == ErrorCode::invalid_input);
}
