// The verdict functions spell their ids themselves (make_check, the judge's verdict): every id they
// give must be a row of the check table (common/check/check_table.hpp), and no verdict may be worse
// than its row's fault (but a probe past its time limit, which fails whatever it feeds). Here the
// judge, the host checks and the doctor's own run over good and bad facts, and every report the
// docs and the golden tests show (docs/samples: the Wine scenarios' real outputs) is read back.
#include <catch2/catch.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "common/check/check_table.hpp"
#include "common/judge/assess.hpp"
#include "tests/support/judge_inputs.hpp"
#include "tests/support/test_environment.hpp"
#include "win/doctor/data_location.hpp"
#include "win/doctor/doctor.hpp"
#include "win/doctor/doctor_checks.hpp"
#include "win/doctor/wslconfig_overrides.hpp"
#include "win/host/host_checks.hpp"

using namespace tfwsl;

namespace {

int rank(CheckStatus s) { return s == CheckStatus::fail ? 2 : s == CheckStatus::warn ? 1 : 0; }

// The id is a row of the table, and the status is not worse than the row says a fault costs.
void fits_table(const CheckResult& c) {
  INFO(c.id << " (" << to_string(c.status) << "): " << c.summary);
  const CheckRow* row = find_check_row(c.id);
  CHECK(row != nullptr);
  if (!row) return;
  const bool probe_timed_out = c.summary.find("ran past its time limit") != std::string::npos;
  if (!probe_timed_out) CHECK(rank(c.status) <= rank(row->fault));
  if (!c.blocked_by.empty()) CHECK((find_check_row(c.blocked_by) != nullptr || is_precondition(c.blocked_by)));
}

std::vector<std::string> ids_of(const std::vector<CheckResult>& checks) {
  std::vector<std::string> ids;
  for (const auto& c : checks) ids.push_back(c.id);
  return ids;
}

// Facts the judge finds good and bad: nothing observed, WSL 1, a WSL 2 distro with a GPU, a CUDA
// toolkit and a cuDNN of other series than the profile's, little disk and data on /mnt/c, and the
// same with every probe timed out.
std::vector<agent_api::LinuxFacts> judge_facts() {
  agent_api::LinuxFacts empty;
  agent_api::LinuxFacts wsl1 = empty;
  wsl1.wsl.kind = agent_api::WslKind::wsl1;
  agent_api::LinuxFacts wsl2 = empty;
  wsl2.wsl.kind = agent_api::WslKind::wsl2;
  wsl2.wsl.dxg = wsl2.wsl.wsl_lib_dir = wsl2.wsl.ld_wsl_conf = true;
  wsl2.gpu.libcuda_loaded = true;
  wsl2.gpu.libcuda_path = "/usr/lib/wsl/lib/libcuda.so.1.1";
  wsl2.gpu.devices = {{0, "RTX", 8, 6, 1}};
  wsl2.stack.python_version = "3.10.12";
  wsl2.stack.toolkits = {{"/usr/local/cuda-13.0", "13.0.48"}};
  wsl2.stack.cudnn_found = true;
  wsl2.stack.cudnn_version = 91900;  // 9.19.0 where the profile wants 8.9
  wsl2.tf.installed = true;
  wsl2.tf.version = "2.15.1";
  wsl2.system.mem_total_kb = 1 << 24;
  wsl2.system.disk_free_bytes = std::uint64_t{1} << 30;
  wsl2.system.data_paths = {{"/mnt/c/data", "/mnt/c", "9p", true}};
  agent_api::LinuxFacts late = wsl2;
  late.timed_out = {"wsl", "gpu", "linux-driver", "cuda-stack", "tensorflow"};
  return {empty, wsl1, wsl2, late};
}

}  // namespace

TEST_CASE("the judge gives the table's agent checks, in its order, none worse than its fault", "[check][table]") {
  // As the agent judges (no Windows view) and as the doctor on Windows does (.wslconfig's memory=
  // of 16 GiB asked).
  const std::optional<judge::WindowsMemory> windows{
      judge::WindowsMemory{std::uint64_t{16} << 30, std::uint64_t{32} << 30, ".wslconfig"}};
  for (const auto& view : {std::optional<judge::WindowsMemory>{}, windows}) {
    for (const auto& facts : judge_facts()) {
      const auto report = judge::assess(facts, test::default_check_policy(), view);
      CHECK(ids_of(report.checks) == check_ids(CheckSource::agent));
      for (const auto& c : report.checks) fits_table(c);
    }
  }
}

TEST_CASE("the host checks are the table's host rows, in its order, none worse than its fault", "[check][table]") {
  host::HostFacts windows;
  windows.is_windows = true;
  windows.firmware_virtualization = false;
  windows.fast_startup = true;
  windows.tdr_delay_s = 2;
  windows.gpus.push_back({"RTX", "411.31", "", host::GpuDriverModel::tcc, {}, "nvidia-smi"});
  host::HostPolicy policy{"tf-2.15-cuda-12.2", 19044, "528.33"};
  for (const auto& facts : {host::HostFacts{}, windows}) {
    const auto checks = host::assess_host(facts, policy);
    CHECK(ids_of(checks) == check_ids(CheckSource::host));
    for (const auto& c : checks) fits_table(c);
  }
}

TEST_CASE("the doctor's own checks are rows of the table, none worse than its fault", "[check][table]") {
  using namespace doctor;
  std::vector<CheckResult> checks;
  std::string chosen;
  WslFacts not_run, no_distro;
  no_distro.ran = true;
  for (const auto& wsl : {not_run, no_distro}) {
    checks.push_back(check_wsl_installed(wsl));
    checks.push_back(check_wsl_version(wsl));
    checks.push_back(check_wsl_default_version(wsl));
    checks.push_back(check_wsl_distro(wsl, "", chosen));
  }
  for (auto link : {AgentLink::none, AgentLink::http, AgentLink::stdio_fallback, AgentLink::stdio_impostor}) {
    checks.push_back(check_localhost_forwarding(link, "refused", true, {"mirrored", ".wslconfig"}));
    checks.push_back(check_agent(link, "tfwsl-agent", "refused", true));
  }
  host::HostFacts windows;
  windows.is_windows = true;
  windows.gpus.push_back({"RTX", "573.76", "", host::GpuDriverModel::wddm, {}, "nvidia-smi"});
  agent_api::GpuResponse gpu;
  gpu.nvml_driver_version = "546.80";
  checks.push_back(check_driver_parity(windows, gpu));
  WslconfigFacts file{true, ".wslconfig", "", "[wsl2]\nmemory=999GB\ngpuSupport=false\n"};
  std::optional<std::uint64_t> memory;
  for (auto& c : check_wslconfig(file, std::uint64_t{32} << 30, memory)) checks.push_back(c);
  checks.push_back(check_wslconfig_overrides(file, {}));
  checks.push_back(check_data_paths({"/mnt/c/data"}));
  for (const auto& c : checks) fits_table(c);
  CHECK(ids_of(check_wslconfig(file, {}, memory)) == std::vector<std::string>{"wslconfig.parse", "wslconfig.memory"});
}

TEST_CASE("a native doctor report holds exactly the table's ids, in its order", "[check][table]") {
  doctor::DoctorEnvironment env;
  env.host_facts = [] { return host::HostFacts{}; };
  env.wslconfig = [] { return doctor::WslconfigFacts{}; };
  env.linux_side = [](const std::string&) {
    doctor::LinuxSide side;
    side.link = doctor::AgentLink::http;
    side.facts = judge_facts()[2];
    return side;
  };
  env.linux_policy = test::default_check_policy();
  const auto result = doctor::run_doctor(env);
  // complete_report puts an id outside the table after the table's: a misspelt id shows here.
  CHECK(ids_of(result.report.checks) == check_ids());
  for (const auto& c : result.report.checks) fits_table(c);
}

TEST_CASE("every check of the docs' samples and the golden reports is a row of the table", "[check][table][docs]") {
  const std::filesystem::path source(TFWSL_SOURCE_DIR);
  const std::filesystem::path samples = source / "docs" / "samples";
  std::size_t reports = 0;
  for (const auto& dir : {samples, source / "tests" / "golden" / "doctor"}) {
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
      if (entry.path().extension() != ".json") continue;
      INFO(entry.path().filename().string());
      const auto report = nlohmann::json::parse(test::read_file(entry.path()));
      std::vector<std::string> ids;
      for (const auto& j : report.at("checks")) {
        CheckResult c;
        std::string error;
        REQUIRE(from_json(j, c, error));
        fits_table(c);
        ids.push_back(c.id);
      }
      // The samples are whole reports of today's doctor; the golden inputs are older and may lack
      // a check added since (they test the text, which shows what is there).
      if (dir == samples) CHECK(ids == check_ids());
      ++reports;
    }
  }
  CHECK(reports >= 12);
}
