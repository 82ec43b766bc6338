// The judge (common/judge) over facts built by hand: the verdicts say the specifics (what was
// found, what the profile wants, its venv, the distro's name), and versions are compared as
// versions. The probes that fill these facts are tested in tests/unit/agent.
#include "common/judge/assess.hpp"

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <regex>
#include <sstream>

#include "tests/support/judge_inputs.hpp"
#include "tests/support/report_lookup.hpp"
#include "tests/support/test_environment.hpp"

using namespace tfwsl;
using namespace tfwsl::judge;
using agent_api::LinuxFacts;
using tfwsl::test::require_check;

TEST_CASE("the default profile's policy comes from the profile and the compatibility data", "[judge]") {
  auto p = test::default_check_policy();
  CHECK(p.profile_name == "profile tf-2.15-cuda-12.2");
  CHECK(p.cuda_toolkit == "12.2");
  CHECK(p.cudnn == "8.9");
  CHECK(p.venv == "~/.venvs/tf-2.15");
  CHECK(p.tensorflow_version == "2.15.*");
  CHECK(p.tensorflow_requirement == "tensorflow[and-cuda]==2.15.*");
  CHECK(p.python_min == "3.9");
  CHECK(p.python_max == "3.11");
  CHECK(check_policy_for_profile("no-such-profile.yaml").has_value() == false);
}

TEST_CASE("cuda.toolkit says what it found and what the profile wants", "[judge]") {
  auto f = test::wsl2_distro_facts();
  const auto p = test::default_check_policy();
  f.stack.toolkits = {{"/usr/local/cuda-13.0", "13.0.48"}};
  auto r = require_check(assess(f, p), "cuda.toolkit");
  CHECK(r.status == CheckStatus::warn);
  CHECK(r.summary == "CUDA toolkit 13.0.48 found, the profile wants 12.2");
  CHECK(r.fix.find("cuda-toolkit-12-2") != std::string::npos);
  CHECK(r.fix.rfind("tfwsl provision", 0) == 0);
  CHECK(r.fix_command == std::vector<std::string>{"provision"});
  f.stack.toolkits = {{"/usr/local/cuda-12.20", "12.20.1"}};  // a series the prefix "12.2" would match
  CHECK(require_check(assess(f, p), "cuda.toolkit").status == CheckStatus::warn);
  f.stack.toolkits = {{"/usr/local/cuda-12.2", "12.2.140"}};
  r = require_check(assess(f, p), "cuda.toolkit");
  CHECK(r.status == CheckStatus::ok);
  CHECK(r.summary == "CUDA toolkit 12.2.140 at /usr/local/cuda-12.2, the 12.2 series the profile wants");
  f.stack.toolkits.clear();
  CHECK(require_check(assess(f, p), "cuda.toolkit").summary == "no CUDA toolkit in /usr/local; the profile wants 12.2");
}

TEST_CASE("a system cuDNN of another series than the profile wants is not ok", "[judge]") {
  auto f = test::wsl2_distro_facts();
  const auto p = test::default_check_policy();
  f.stack.cudnn_found = true;
  f.stack.cudnn_library = "/usr/lib/x86_64-linux-gnu/libcudnn.so.9";
  f.stack.cudnn_version = 91900;  // cuDNN 9.19.0 (cuDNN 9 numbers it major*10000 + minor*100 + patch)
  auto r = require_check(assess(f, p), "cudnn");
  CHECK(r.status == CheckStatus::warn);
  CHECK(r.summary.find("cuDNN 9.19.0 at /usr/lib/x86_64-linux-gnu/libcudnn.so.9") == 0);
  CHECK(r.summary.find("wants 8.9") != std::string::npos);
  CHECK(r.fix.find("tensorflow[and-cuda]==2.15.*") != std::string::npos);
  f.stack.cudnn_version = 8906;  // 8.9.6
  r = require_check(assess(f, p), "cudnn");
  CHECK(r.status == CheckStatus::ok);
  CHECK(r.summary.find("cuDNN 8.9.6") == 0);
  CHECK(r.fix.empty());
}

TEST_CASE("Python and TensorFlow verdicts name the profile's venv and TensorFlow", "[judge]") {
  auto f = test::wsl2_distro_facts();
  const auto p = test::default_check_policy();
  f.stack.python_version = "3.12.3";
  auto py = require_check(assess(f, p), "python.version");
  CHECK(py.status == CheckStatus::fail);
  CHECK(py.summary == "Python 3.12.3 is outside 3.9–3.11 supported by profile tf-2.15-cuda-12.2");
  CHECK(py.fix.find("the profile's venv ~/.venvs/tf-2.15") != std::string::npos);
  f.stack.python_version = "3.10.12";
  CHECK(require_check(assess(f, p), "python.version").summary ==
        "Python 3.10.12, within 3.9–3.11 of profile tf-2.15-cuda-12.2");

  f.tf.ran = true;
  f.tf.error = "No module named 'tensorflow'";
  auto tf = require_check(assess(f, p), "tf.installed");
  CHECK(tf.status == CheckStatus::fail);
  CHECK(tf.fix == "tfwsl provision (installs tensorflow[and-cuda]==2.15.* into the profile's venv ~/.venvs/tf-2.15)");
  CHECK(tf.fix_command == std::vector<std::string>{"provision"});  // what doctor --fix runs
  f.tf.installed = true;
  f.tf.version = "2.17.0";
  tf = require_check(assess(f, p), "tf.installed");
  CHECK(tf.status == CheckStatus::warn);
  CHECK(tf.summary == "TensorFlow 2.17.0 is installed, profile tf-2.15-cuda-12.2 wants 2.15.*");
  f.tf.version = "2.15.1";
  CHECK(require_check(assess(f, p), "tf.installed").status == CheckStatus::ok);
}

TEST_CASE("fixes name the distro the agent is in, and the commands that exist", "[judge]") {
  auto f = test::wsl2_distro_facts();
  f.wsl.kind = agent_api::WslKind::wsl1;
  CHECK(require_check(assess(f, test::default_check_policy()), "linux.dxg").fix ==
        "In Windows: wsl --set-version Ubuntu-22.04 2");
  f.wsl.distro = "Ubuntu 22.04.4 LTS";  // os-release's PRETTY_NAME: not a name wsl.exe takes
  CHECK(require_check(assess(f, test::default_check_policy()), "linux.dxg").fix.find("<name from wsl -l -v>") !=
        std::string::npos);
  f = test::wsl2_distro_facts();
  f.system.data_paths = {{"/mnt/c/data", "/mnt/c", "9p", true}};
  auto data = require_check(assess(f, test::default_check_policy()), "data.location");
  CHECK(data.status == CheckStatus::warn);
  CHECK(data.fix.find("tfwsl data push C:\\data (it lands in ~/datasets)") != std::string::npos);
  CHECK(data.fix_command == std::vector<std::string>{"data", "push", "C:\\data"});
  // A distro whose wsl.conf mounts the drives under /windir/ (the agent reports its root): the same
  // folder is /windir/c/data there, and /mnt/c/data is no drive at all.
  f.wsl.automount_root = "/windir/";
  f.system.data_paths = {{"/windir/c/data", "/windir/c", "9p", true}};
  CHECK(require_check(assess(f, test::default_check_policy()), "data.location").fix_command ==
        std::vector<std::string>{"data", "push", "C:\\data"});
  f.system.data_paths = {{"/mnt/c/data", "/mnt/c", "9p", true}};
  CHECK(require_check(assess(f, test::default_check_policy()), "data.location").fix_command ==
        std::vector<std::string>{"data", "push", "/mnt/c/data"});
}

TEST_CASE("verdicts that need nothing done carry no fix", "[judge]") {
  auto f = test::wsl2_distro_facts();
  f.wsl.wsl_lib_dir = f.wsl.ld_wsl_conf = true;
  f.gpu.libcuda_loaded = true;
  f.gpu.libcuda_path = "/usr/lib/wsl/lib/libcuda.so.1.1";
  f.gpu.devices = {{0, "RTX", 8, 6, 1}};
  f.system.mem_total_kb = 1 << 24;
  f.system.disk_free_bytes = std::uint64_t{100} << 30;
  for (const auto& c : assess(f, test::default_check_policy()).checks) {
    INFO(c.id << ": " << c.summary);
    if (c.status == CheckStatus::ok || c.status == CheckStatus::skip)
      CHECK(c.fix.empty());
    else
      CHECK_FALSE(c.fix.empty());
  }
}

TEST_CASE("the judge's texts hold no version literal: versions come from the profile and the compatibility data",
          "[judge]") {
  // String literals in common/judge (comments left out) must not carry a version such as "2.15" or
  // "528.33": what "ok" means is data (docs/architecture.md).
  const std::filesystem::path dir = std::filesystem::path(TFWSL_SOURCE_DIR) / "common" / "judge";
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) {  // e.g. a Wine run that cannot see the source tree
    std::cout << "SKIPPED: the sources are not readable here (" << dir.string() << ")" << std::endl;
    std::exit(tfwsl::test::k_skip_exit_code);
  }
  static const std::regex k_literal(R"("(?:[^"\\]|\\.)*")");
  static const std::regex k_version(R"(\b\d+\.\d+)");
  std::vector<std::string> found;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    std::istringstream lines(tfwsl::test::read_file(entry.path()));
    std::string line;
    while (std::getline(lines, line)) {
      auto code = line.substr(0, line.find("//"));
      if (code.find('"') == std::string::npos) continue;
      for (std::sregex_iterator it(code.begin(), code.end(), k_literal), end; it != end; ++it)
        if (std::regex_search(it->str(), k_version))
          found.push_back(entry.path().filename().string() + ": " + it->str());
    }
  }
  INFO([&] {
    std::string all;
    for (const auto& f : found) all += f + "\n";
    return all;
  }());
  CHECK(found.empty());
}

TEST_CASE("libcuda's fix names the Windows driver floor of the profile's CUDA from the compatibility data", "[judge]") {
  LinuxFacts f;
  f.wsl.kind = agent_api::WslKind::wsl2;
  auto fix = require_check(assess(f, test::default_check_policy()), "linux.libcuda").fix;
  CHECK(fix.find("(528.33 for CUDA 12 or later)") != std::string::npos);
}

TEST_CASE("mem.effective says where the memory is: a WSL VM, or a machine that is not WSL", "[judge]") {
  auto f = test::wsl2_distro_facts();
  f.system.mem_total_kb = 16318464;
  CHECK(require_check(assess(f, test::default_check_policy()), "mem.effective").summary ==
        "MemTotal 15.6 GiB in this VM");
  f.wsl.kind = agent_api::WslKind::not_wsl;
  CHECK(require_check(assess(f, test::default_check_policy()), "mem.effective").summary ==
        "MemTotal 15.6 GiB on this machine (not WSL: .wslconfig does not apply)");
}
