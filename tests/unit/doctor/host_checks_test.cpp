// Host verdicts and host-fact gathering against a fake registry and a recording process runner.
#include "win/host/host_checks.hpp"

#include <catch2/catch.hpp>

#include "common/check/check_table.hpp"
#include "tests/support/recording_process_runner.hpp"
#include "win/host/host_probe.hpp"

using namespace tfwsl;
using namespace tfwsl::host;

namespace {

HostPolicy policy() { return HostPolicy{"tf-2.15-cuda-12.2", 19044, "528.33"}; }

HostFacts windows_with_gpu(const std::string& driver, GpuDriverModel model = GpuDriverModel::wddm) {
  HostFacts f;
  f.is_windows = true;
  f.windows_build = 22631;
  f.windows_ubr = 2861;
  f.firmware_virtualization = true;
  f.vm_platform = true;
  HostGpu g;
  g.name = "NVIDIA GeForce RTX 3080";
  g.driver_version = driver;
  g.driver_model = model;
  g.source = "nvidia-smi";
  f.gpus.push_back(g);
  f.fast_startup = false;
  return f;
}

}  // namespace

TEST_CASE("Windows build: 19044 and later pass, older builds fail with the update fix") {
  auto f = windows_with_gpu("546.80");
  CHECK(check_windows_build(f, policy()).status == CheckStatus::ok);
  f.windows_build = 19043;
  auto r = check_windows_build(f, policy());
  CHECK(r.status == CheckStatus::fail);
  CHECK(r.fix.find("19044") != std::string::npos);
  f.windows_build.reset();
  CHECK(check_windows_build(f, policy()).status == CheckStatus::warn);
}

TEST_CASE("host checks skip with the reason on a non-Windows build, every id present") {
  HostFacts f;
  auto checks = assess_host(f, policy());
  const auto ids = check_ids(CheckSource::host);  // the table's host rows, in its order
  REQUIRE(checks.size() == ids.size());
  for (std::size_t i = 0; i < checks.size(); ++i) {
    CHECK(checks[i].id == ids[i]);
    CHECK(checks[i].status == CheckStatus::skip);
    CHECK(checks[i].summary.find("not running on Windows") != std::string::npos);
  }
}

TEST_CASE("virtualization: firmware off or no Virtual Machine Platform fails, unknown skips") {
  auto f = windows_with_gpu("546.80");
  CHECK(check_virtualization(f).status == CheckStatus::ok);
  f.vm_platform = false;
  CHECK(check_virtualization(f).status == CheckStatus::fail);
  CHECK(check_virtualization(f).fix.find("--install --no-distribution") != std::string::npos);
  f.vm_platform.reset();
  f.firmware_virtualization = false;
  CHECK(check_virtualization(f).status == CheckStatus::fail);
  f.firmware_virtualization.reset();
  CHECK(check_virtualization(f).status == CheckStatus::skip);
}

TEST_CASE("NVIDIA driver below the profile's minimum fails, none found fails, ok names it") {
  CHECK(check_nvidia_driver(windows_with_gpu("546.80"), policy()).status == CheckStatus::ok);
  auto old = check_nvidia_driver(windows_with_gpu("516.94"), policy());
  CHECK(old.status == CheckStatus::fail);
  CHECK(old.summary.find("528.33") != std::string::npos);
  CHECK(old.fix.find("wsl --shutdown") != std::string::npos);
  HostFacts none = windows_with_gpu("546.80");
  none.gpus.clear();
  CHECK(check_nvidia_driver(none, policy()).status == CheckStatus::fail);
}

TEST_CASE("a TCC GPU fails the driver-model check with the WDDM fix, mixed is a warning") {
  auto f = windows_with_gpu("546.80", GpuDriverModel::tcc);
  auto r = check_gpu_driver_model(f);
  CHECK(r.status == CheckStatus::fail);
  CHECK(r.summary.find("invisible to WSL") != std::string::npos);
  HostGpu second = f.gpus[0];
  second.driver_model = GpuDriverModel::wddm;
  f.gpus.push_back(second);
  CHECK(check_gpu_driver_model(f).status == CheckStatus::warn);
  CHECK(check_gpu_driver_model(windows_with_gpu("546.80")).status == CheckStatus::ok);
  CHECK(check_gpu_driver_model(windows_with_gpu("546.80", GpuDriverModel::unknown)).status == CheckStatus::skip);
}

TEST_CASE("TDR: default is ok with a note, a delay under 2 s warns, TdrLevel 0 is ok") {
  auto f = windows_with_gpu("546.80");
  auto r = check_tdr(f);
  CHECK(r.status == CheckStatus::ok);
  CHECK(r.summary.find("default") != std::string::npos);
  f.tdr_delay_s = 1;
  CHECK(check_tdr(f).status == CheckStatus::warn);
  f.tdr_level = 0;
  CHECK(check_tdr(f).status == CheckStatus::ok);
}

TEST_CASE("Fast Startup on warns about localhost forwarding") {
  auto f = windows_with_gpu("546.80");
  CHECK(check_fast_startup(f).status == CheckStatus::ok);
  f.fast_startup = true;
  auto r = check_fast_startup(f);
  CHECK(r.status == CheckStatus::warn);
  CHECK(r.summary.find("localhost") != std::string::npos);
  f.fast_startup.reset();
  CHECK(check_fast_startup(f).status == CheckStatus::skip);
}

TEST_CASE("nvidia-smi query lines parse, error text does not") {
  auto gpus = parse_nvidia_smi_query(
      "NVIDIA GeForce RTX 3080, 537.58, WDDM, 10240 MiB\r\nNVIDIA RTX A6000, 537.58, TCC, 49140 MiB\r\n");
  REQUIRE(gpus.size() == 2);
  CHECK(gpus[0].driver_version == "537.58");
  CHECK(gpus[0].driver_model == GpuDriverModel::wddm);
  CHECK(gpus[0].memory_mib == std::optional<std::uint64_t>(10240));
  CHECK(gpus[1].driver_model == GpuDriverModel::tcc);
  CHECK(
      parse_nvidia_smi_query("NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver.").empty());
}

TEST_CASE("host facts: nvidia-smi first, then the display-class registry key converted to NVIDIA's numbering") {
  MapRegistry registry;
  std::string adapter = std::string(reg::k_display_class) + "\\0001";
  registry.set_string(adapter, "ProviderName", "NVIDIA");
  registry.set_string(adapter, "DriverDesc", "NVIDIA GeForce RTX 3050");
  registry.set_string(adapter, "DriverVersion", "31.0.15.3758");
  registry.set_dword(reg::k_current_version, "UBR", 2861);
  registry.set_dword(reg::k_power, "HiberbootEnabled", 1);
  registry.set_dword(reg::k_graphics_drivers, "TdrDelay", 60);
  registry.set_dword(reg::k_lxss, "DefaultVersion", 2);
  registry.set_string(reg::k_vmcompute, "DisplayName", "Hyper-V Host Compute Service");
  SystemInfo system{true, 22631, 32ull << 30, true};

  test::RecordingProcessRunner runner;  // no nvidia-smi anywhere
  HostProbeSettings settings;
  settings.nvidia_smi = {"C:\\Windows\\System32\\nvidia-smi.exe"};
  auto facts = gather_host_facts(system, registry, runner, settings);
  REQUIRE(facts.gpus.size() == 1);
  CHECK(facts.gpus[0].driver_version == "537.58");
  CHECK(facts.gpus[0].windows_driver_version == "31.0.15.3758");
  CHECK(facts.gpus[0].source == "registry (display class)");
  CHECK(facts.windows_ubr == std::optional<int>(2861));
  CHECK(facts.fast_startup == std::optional<bool>(true));
  CHECK(facts.tdr_delay_s == std::optional<std::uint32_t>(60));
  CHECK(facts.wsl_default_version == std::optional<int>(2));
  CHECK(facts.vm_platform == std::optional<bool>(true));

  runner.on({"C:\\Windows\\System32\\nvidia-smi.exe"},
            ProcessOutcome{0, "NVIDIA GeForce RTX 3050, 546.80, WDDM, 8192 MiB\r\n", ""});
  facts = gather_host_facts(system, registry, runner, settings);
  REQUIRE(facts.gpus.size() == 1);
  CHECK(facts.gpus[0].driver_version == "546.80");
  CHECK(facts.gpus[0].source == "nvidia-smi");
  auto argv = runner.requests().back().argv;
  CHECK(argv == nvidia_smi_query_argv("C:\\Windows\\System32\\nvidia-smi.exe"));
}

TEST_CASE("the Windows build comes from the registry's CurrentBuild, RtlGetVersion when unreadable") {
  MapRegistry registry;
  test::RecordingProcessRunner runner;
  SystemInfo system{true, 18362, {}, {}};  // what Wine's "win10" reports through RtlGetVersion
  CHECK(gather_host_facts(system, registry, runner, HostProbeSettings{}).windows_build == std::optional<int>(18362));
  registry.set_string(reg::k_current_version, "CurrentBuildNumber", "22631");
  CHECK(gather_host_facts(system, registry, runner, HostProbeSettings{}).windows_build == std::optional<int>(22631));
  registry.set_string(reg::k_current_version, "CurrentBuild", "26100");
  CHECK(gather_host_facts(system, registry, runner, HostProbeSettings{}).windows_build == std::optional<int>(26100));
  registry.set_string(reg::k_current_version, "CurrentBuild", "26100x");  // garbled: the next source
  CHECK(gather_host_facts(system, registry, runner, HostProbeSettings{}).windows_build == std::optional<int>(22631));
}

TEST_CASE("the uninstall key's DisplayVersion is the last fallback") {
  MapRegistry registry;
  registry.set_string(reg::k_nvidia_uninstall, "DisplayVersion", "537.58");
  test::RecordingProcessRunner runner;
  auto facts = gather_host_facts(SystemInfo{true, 22631, {}, {}}, registry, runner, HostProbeSettings{});
  REQUIRE(facts.gpus.size() == 1);
  CHECK(facts.gpus[0].driver_version == "537.58");
  CHECK(facts.gpus[0].source == "registry (uninstall key)");
}

TEST_CASE("nvidia-smi.exe is looked for in the setting, then System32, then NVSMI") {
  std::map<std::string, std::string> env{{"SystemRoot", "C:\\Windows"}, {"ProgramW6432", "C:\\Program Files"}};
  auto lookup = [&](const std::string& n) -> std::optional<std::string> {
    auto it = env.find(n);
    return it == env.end() ? std::nullopt : std::optional<std::string>(it->second);
  };
  auto c = nvidia_smi_candidates(lookup);
  REQUIRE(c.size() == 2);
  CHECK(c[0] == "C:\\Windows\\System32\\nvidia-smi.exe");
  CHECK(c[1] == "C:\\Program Files\\NVIDIA Corporation\\NVSMI\\nvidia-smi.exe");
  env["TFWSL_NVIDIA_SMI"] = "Z:\\stand-in\\nvidia-smi.exe";
  CHECK(nvidia_smi_candidates(lookup) == std::vector<std::string>{"Z:\\stand-in\\nvidia-smi.exe"});
}
