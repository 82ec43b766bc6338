// diff_profile and profile_from_machine (win/profile/profile_drift.hpp, profile_export.hpp): a
// profile against a machine's facts, as pure functions.
#include "win/profile/profile_drift.hpp"

#include <algorithm>
#include <catch2/catch.hpp>

#include "common/profile/profile_emitter.hpp"
#include "common/profile/profile_loader.hpp"
#include "common/profile/profile_source.hpp"
#include "common/profile/profile_validator.hpp"
#include "win/profile/profile_export.hpp"
#include "win/profile/profile_export_text.hpp"

using namespace tfwsl;

namespace {

const char* k_team =
    "name: team\n"
    "distro: Ubuntu-22.04\n"
    "wsl: { memory: 16GB, processors: 8 }\n"
    "gpu: { driver: \"546.80\" }\n"
    "cuda: { toolkit: \"12.2\", cudnn: \"8.9\" }\n"
    "python: { version: \"3.10\", venv: ~/.venvs/team }\n"
    "tensorflow: { version: \"2.15.*\", extras: [and-cuda] }\n";

Profile load_text(const std::string& text) {
  InMemoryProfileResolver resolver({{"team.yaml", text}});
  auto root = resolver.open("team.yaml");
  REQUIRE(root);
  auto loaded = load_profile(*root, resolver);
  INFO([&] {
    std::string s;
    for (const auto& i : loaded.issues) s += i.to_string() + "\n";
    return s;
  }());
  REQUIRE(loaded.ok());
  return *loaded.profile;
}

// A machine that has what k_team says.
ProfileMachineFacts matching_machine() {
  ProfileMachineFacts m;
  m.host.distro = "Ubuntu-22.04";
  m.host.windows_driver = "546.80";
  m.host.wslconfig_path = "C:\\Users\\me\\.wslconfig";
  m.host.wslconfig_bytes = "[wsl2]\r\nmemory=16GB\r\nprocessors=8\r\n";
  agent_api::LinuxFacts f;
  f.wsl.kind = agent_api::WslKind::wsl2;
  f.gpu.nvml_driver_version = "546.80";
  f.stack.toolkits = {{"/usr/local/cuda-12.2", "12.2.140"}};
  f.stack.python_version = "3.10.12";
  f.tf.ran = true;
  f.tf.installed = true;
  f.tf.version = "2.15.1";
  m.linux = f;
  return m;
}

std::vector<std::string> drift_keys(const ProfileDiff& d) {
  std::vector<std::string> keys;
  for (const auto& x : d.drifts) keys.push_back(x.key);
  return keys;
}

const ProfileUncompared* uncompared(const ProfileDiff& d, const std::string& key) {
  auto it = std::find_if(d.not_compared.begin(), d.not_compared.end(),
                         [&](const ProfileUncompared& u) { return u.key == key; });
  return it == d.not_compared.end() ? nullptr : &*it;
}

}  // namespace

TEST_CASE("diff: a machine that has what the profile says has no drift", "[profile][diff]") {
  const auto diff = diff_profile(load_text(k_team), matching_machine());
  CHECK(diff.drifts.empty());
  for (const char* key : {"route", "distro", "wsl.memory", "wsl.processors", "gpu.driver", "cuda.toolkit",
                          "python.version", "tensorflow.version"})
    CHECK(std::count(diff.same.begin(), diff.same.end(), key) == 1);
  // Said, not silently dropped: what the machine does not show.
  REQUIRE(uncompared(diff, "cuda.cudnn"));
  CHECK(uncompared(diff, "cuda.cudnn")->why.find("pip wheels") != std::string::npos);
  CHECK(uncompared(diff, "python.venv"));
  CHECK(uncompared(diff, "tensorflow.extras"));
  CHECK_FALSE(uncompared(diff, "name"));
}

TEST_CASE("diff: TensorFlow, driver and memory that differ are exactly three drifts, each with its fix",
          "[profile][diff]") {
  auto machine = matching_machine();
  machine.linux->tf.version = "2.16.1";
  machine.host.windows_driver = "537.58";
  machine.host.wslconfig_bytes = "[wsl2]\nmemory=8GB\nprocessors=8\n";
  const auto diff = diff_profile(load_text(k_team), machine);
  REQUIRE(drift_keys(diff) == std::vector<std::string>{"wsl.memory", "gpu.driver", "tensorflow.version"});
  CHECK(diff.drifts[0].wanted == "16GB");
  CHECK(diff.drifts[0].found == "8GB");
  CHECK(diff.drifts[0].where.to_string() == "team.yaml:3:16");
  CHECK(diff.drifts[0].fix ==
        "tfwsl wslconfig set memory=16GB --apply (under [wsl2] in C:\\Users\\me\\.wslconfig; --apply "
        "restarts WSL so that it reads it)");
  CHECK(diff.drifts[1].found == "537.58 (the Windows driver)");
  CHECK(diff.drifts[1].fix.find("546.80 or newer") != std::string::npos);
  CHECK(diff.drifts[2].wanted == "2.15.*");
  CHECK(diff.drifts[2].found == "2.16.1");
  CHECK(diff.drifts[2].fix ==
        "tfwsl provision (installs tensorflow[and-cuda]==2.15.* into the profile's venv, ~/.venvs/team)");
}

TEST_CASE("diff: a newer driver is no drift, and memory is compared by size, not spelling", "[profile][diff]") {
  auto machine = matching_machine();
  machine.host.windows_driver = "560.94";
  machine.host.wslconfig_bytes = "[wsl2]\nmemory=16384MB\nprocessors=8\n";
  CHECK(diff_profile(load_text(k_team), machine).drifts.empty());
}

TEST_CASE("diff: what .wslconfig lacks or WSL cannot read is a drift, and no .wslconfig natively is not compared",
          "[profile][diff]") {
  auto machine = matching_machine();
  machine.host.wslconfig_bytes.reset();
  auto absent = diff_profile(load_text(k_team), machine);
  REQUIRE(drift_keys(absent) == std::vector<std::string>{"wsl.memory", "wsl.processors"});
  CHECK(absent.drifts[0].found == "no C:\\Users\\me\\.wslconfig (WSL's default)");
  machine.host.wslconfig_bytes = "[wsl2]\nmemory=16 GB\n";
  auto unreadable = diff_profile(load_text(k_team), machine);
  REQUIRE(drift_keys(unreadable) == std::vector<std::string>{"wsl.memory", "wsl.processors"});
  CHECK(unreadable.drifts[0].found == "'16 GB' (WSL does not read it)");
  CHECK(unreadable.drifts[1].found == "not set (WSL's default)");
  machine.host.wslconfig_path.clear();
  auto native = diff_profile(load_text(k_team), machine);
  CHECK(native.drifts.empty());
  REQUIRE(uncompared(native, "wsl.memory"));
  CHECK(uncompared(native, "wsl.memory")->why == "no .wslconfig here (not Windows)");
}

TEST_CASE("diff: without the agent the distro's keys are not compared, with the reason", "[profile][diff]") {
  auto machine = matching_machine();
  machine.linux.reset();
  machine.linux_error = "tfwsl-agent was not found";
  const auto diff = diff_profile(load_text(k_team), machine);
  CHECK(diff.drifts.empty());
  for (const char* key : {"cuda.toolkit", "python.version", "tensorflow.version"}) {
    INFO(key);
    REQUIRE(uncompared(diff, key));
    CHECK(uncompared(diff, key)->why == "the agent could not be reached: tfwsl-agent was not found");
  }
  CHECK(std::count(diff.same.begin(), diff.same.end(), "gpu.driver") == 1);  // the Windows driver is the host's
}

TEST_CASE("diff: natively the driver is NVML's, and the distro name is not compared", "[profile][diff]") {
  auto machine = matching_machine();
  machine.host.windows_driver.clear();
  machine.host.distro.clear();
  machine.host.distro_why = "not Windows";
  machine.linux->gpu.nvml_driver_version = "535.10";
  const auto diff = diff_profile(load_text(k_team), machine);
  REQUIRE(drift_keys(diff) == std::vector<std::string>{"gpu.driver"});
  CHECK(diff.drifts[0].found == "535.10 (NVML in the distro)");
  REQUIRE(uncompared(diff, "distro"));
  CHECK(uncompared(diff, "distro")->why == "not Windows");
}

TEST_CASE("diff: the distro's stack that differs names the install that fixes it", "[profile][diff]") {
  auto machine = matching_machine();
  machine.host.distro = "Ubuntu-24.04";
  machine.linux->stack.toolkits = {{"/usr/local/cuda-12.5", "12.5.40"}};
  machine.linux->stack.python_version = "3.12.3";
  machine.linux->stack.cudnn_found = true;
  machine.linux->stack.cudnn_version = 91900;
  machine.linux->stack.cudnn_library = "/usr/lib/x86_64-linux-gnu/libcudnn.so.9";
  machine.linux->tf.installed = false;
  const auto diff = diff_profile(load_text(k_team), machine);
  REQUIRE(drift_keys(diff) ==
          std::vector<std::string>{"distro", "cuda.toolkit", "cuda.cudnn", "python.version", "tensorflow.version"});
  CHECK(diff.drifts[0].fix.find("tfwsl profile diff --distro Ubuntu-22.04") != std::string::npos);
  // The doctor's fix for the same machine (issue 43, item 6): apt-get alone fails without NVIDIA's
  // repository, which provisioning adds first.
  CHECK(diff.drifts[1].fix == "tfwsl provision (installs cuda-toolkit-12-2 from NVIDIA's wsl-ubuntu repository)");
  CHECK(diff.drifts[2].found == "9.19 (/usr/lib/x86_64-linux-gnu/libcudnn.so.9)");
  CHECK(diff.drifts[4].found == "none installed");  // "this machine has none installed", not "has not installed"
}

TEST_CASE("export: the machine as a profile, which diff on the same machine finds no drift in", "[profile][export]") {
  auto machine = matching_machine();
  machine.linux->tf.version = "2.16.1";
  machine.linux->stack.toolkits = {{"/usr/local/cuda-12.2", "12.2.140"}, {"/usr/local/cuda-12.3", "12.3.52"}};
  machine.linux->stack.cudnn_found = true;
  machine.linux->stack.cudnn_version = 8906;
  machine.host.windows_driver = "537.58";
  machine.host.wslconfig_bytes = "[wsl2]\nmemory=24GB\nswap=0\n";
  const Profile exported = profile_from_machine(machine, "lab-pc");
  const std::string yaml = emit_profile(exported);
  INFO(yaml);
  CHECK(yaml.find("name: lab-pc\n") != std::string::npos);
  CHECK(yaml.find("distro: Ubuntu-22.04") != std::string::npos);
  CHECK(yaml.find("memory: 24GB") != std::string::npos);
  CHECK(yaml.find("driver: \"537.58\"") != std::string::npos);
  CHECK(yaml.find("toolkit: \"12.3\"") != std::string::npos);  // the newest
  CHECK(yaml.find("cudnn: \"8.9\"") != std::string::npos);
  CHECK(yaml.find("version: \"3.10\"") != std::string::npos);
  CHECK(yaml.find("version: \"==2.16.1\"") != std::string::npos);
  CHECK(yaml.find("processors") == std::string::npos);  // not in its .wslconfig: not exported

  const auto diff = diff_profile(load_text(yaml), machine);
  CHECK(drift_keys(diff).empty());
  CHECK(std::count(diff.same.begin(), diff.same.end(), "tensorflow.version") == 1);
  CHECK(std::count(diff.same.begin(), diff.same.end(), "wsl.swap") == 1);
}

TEST_CASE("export: what the machine does not show stays out", "[profile][export]") {
  ProfileMachineFacts bare;
  bare.linux = agent_api::LinuxFacts{};
  const std::string yaml = emit_profile(profile_from_machine(bare, "bare"));
  CHECK(yaml == "name: bare\n");
  CHECK(cudnn_series(8906) == "8.9");
  CHECK(cudnn_series(90100) == "9.1");
  CHECK(cudnn_series(91900) == "9.19");
}

TEST_CASE("diff judges Python as the doctor does: inside the range the profile's TensorFlow supports is no drift",
          "[profile][diff]") {
  auto machine = matching_machine();
  machine.linux->stack.python_version = "3.11.7";  // the profile says 3.10; TF 2.15 supports 3.9-3.11
  auto diff = diff_profile(load_text(k_team), machine);
  CHECK(diff.drifts.empty());
  CHECK(std::count(diff.same.begin(), diff.same.end(), "python.version") == 1);
  machine.linux->stack.python_version = "3.12.3";  // outside: the doctor fails it, and diff calls it a drift
  diff = diff_profile(load_text(k_team), machine);
  CHECK(drift_keys(diff) == std::vector<std::string>{"python.version"});
}

TEST_CASE("export keeps the extras of the built-in profile whose TensorFlow the machine runs", "[profile][export]") {
  auto machine = matching_machine();  // TensorFlow 2.15.1: tf-2.15-cuda-12.2 says tensorflow[and-cuda]
  const Profile exported = profile_from_machine(machine, "lab-pc");
  REQUIRE(exported.tensorflow_extras.value);
  CHECK(*exported.tensorflow_extras.value == std::vector<std::string>{"and-cuda"});
  const std::string yaml = emit_profile(exported);
  INFO(yaml);
  CHECK(yaml.find("and-cuda") != std::string::npos);
  CHECK(tensorflow_pip_requirement(load_text(yaml)) == "tensorflow[and-cuda]==2.15.1");
}

TEST_CASE("export extends the built-in profile the machine matches and writes only what differs", "[profile][export]") {
  const auto machine = matching_machine();  // TF 2.15.1, CUDA 12.2, Python 3.10: tf-2.15-cuda-12.2
  const ExportedProfile exported = export_machine_profile(machine, "lab-pc");
  INFO(exported.text);
  CHECK(exported.extends == "builtin:tf-2.15-cuda-12.2");
  CHECK(exported.text.rfind("extends: builtin:tf-2.15-cuda-12.2\nname: lab-pc\n", 0) == 0);
  CHECK(exported.text.find("version: \"==2.15.1\"") != std::string::npos);  // the installed release, not 2.15.*
  CHECK(exported.text.find("driver: \"546.80\"") != std::string::npos);
  CHECK(exported.text.find("memory: 16GB") != std::string::npos);
  for (const char* inherited : {"distro:", "toolkit:", "and-cuda", "python:", "cudnn"})
    CHECK(exported.text.find(inherited) == std::string::npos);
  // What it loads as: valid, with the built-in's extras, and no drift on the same machine.
  const Profile loaded = load_text(exported.text);
  CHECK(tensorflow_pip_requirement(loaded) == "tensorflow[and-cuda]==2.15.1");
  CHECK(drift_keys(diff_profile(loaded, machine)).empty());
}

TEST_CASE("export falls back to the self-contained form where no built-in profile matches", "[profile][export]") {
  auto machine = matching_machine();
  machine.linux->stack.toolkits = {{"/usr/local/cuda-11.8", "11.8.89"}};  // no built-in has CUDA 11.8 with TF 2.15
  const ExportedProfile exported = export_machine_profile(machine, "lab-pc");
  INFO(exported.text);
  CHECK(exported.extends.empty());
  CHECK(exported.text.find("extends") == std::string::npos);
  CHECK(exported.text.find("toolkit: \"11.8\"") != std::string::npos);
  CHECK(exported.text == emit_profile(profile_from_machine(machine, "lab-pc")));
}

// Issue 43, item 6: a machine without TensorFlow is exported as what it has, and what it lacks is
// named (not an error about a file the user is not writing); a base fills the rest.
TEST_CASE("export without TensorFlow names what the machine does not show", "[profile][export]") {
  auto machine = matching_machine();
  machine.linux->tf.installed = false;
  machine.linux->tf.version.clear();
  const ExportedProfile exported = export_machine_profile(machine, "lab-pc");
  INFO(exported.text);
  REQUIRE(exported.missing.size() == 1);
  CHECK(exported.missing[0].key == "tensorflow.version");
  CHECK(exported.missing[0].why == "this machine has no TensorFlow installed");
  CHECK(exported.text.find("tensorflow") == std::string::npos);
  CHECK(exported.text.find("toolkit: \"12.2\"") != std::string::npos);
  // Validation with the missing key set aside has nothing more to say about it.
  const std::vector<std::string_view> unshown{"tensorflow.version"};
  for (const auto& issue : validate_profile(exported.profile, builtin_compat_db(), unshown))
    CHECK(issue.message.find("TensorFlow") == std::string::npos);
}

TEST_CASE("export over a base takes what the machine lacks from it and writes only what differs", "[profile][export]") {
  auto machine = matching_machine();
  machine.linux->tf.installed = false;
  machine.linux->tf.version.clear();
  auto base = load_valid_profile("tf-2.15-cuda-12.2");
  REQUIRE(base);
  const ExportBase over{"builtin:tf-2.15-cuda-12.2", *base};
  const ExportedProfile exported = export_machine_profile(machine, "lab-pc", &over);
  INFO(exported.text);
  CHECK(exported.missing.empty());
  CHECK(exported.extends == "builtin:tf-2.15-cuda-12.2");
  CHECK(exported.text.rfind("extends: builtin:tf-2.15-cuda-12.2\nname: lab-pc\n", 0) == 0);
  CHECK(exported.text.find("toolkit:") == std::string::npos);  // the base's own value
  CHECK(exported.text.find("driver: \"546.80\"") != std::string::npos);
  CHECK(exported.profile.tensorflow_version.value_or("") == "2.15.*");
  CHECK_FALSE(has_errors(validate_profile(exported.profile, builtin_compat_db())));
  // What the file loads as is the same merged profile: the machine lacks only the base's TensorFlow.
  const Profile loaded = load_text(exported.text);
  CHECK(drift_keys(diff_profile(loaded, machine)) == std::vector<std::string>{"tensorflow.version"});
}
