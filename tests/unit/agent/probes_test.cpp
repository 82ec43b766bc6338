// The probes and checks against fake machines: no GPU, a broken WSL, a working WSL 2 GPU, a Linux
// driver shadowing the WSL one, WSL 1, and a native Linux machine with a GPU.
#include "linux/checks/probes.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <memory>
#include <thread>

#include "common/judge/assess.hpp"
#include "common/text/utf_convert.hpp"
#include "tests/support/report_lookup.hpp"
#include "tests/unit/agent/fake_machine.hpp"

using namespace tfwsl;
using namespace tfwsl::linux_checks;
using namespace tfwsl::judge;
using tfwsl::test::FakeLibrary;
using tfwsl::test::FakeMachine;
using tfwsl::test::RecordingProcessRunner;

namespace {

// The fake CUDA driver API: behaviour set per test.
int g_cu_init_result = 0;
int g_device_count = 1;
int fake_cu_init(unsigned int) { return g_cu_init_result; }
int fake_cu_driver_get_version(int* v) {
  *v = 12020;
  return 0;
}
int fake_cu_device_get_count(int* n) {
  *n = g_device_count;
  return 0;
}
int fake_cu_device_get(int* d, int i) {
  *d = i;
  return 0;
}
int fake_cu_device_get_name(char* name, int len, int) {
  std::snprintf(name, static_cast<std::size_t>(len), "NVIDIA GeForce RTX 3080");
  return 0;
}
int fake_cu_device_get_attribute(int* v, int attribute, int) {
  *v = attribute == 75 ? 8 : 6;
  return 0;
}
int fake_cu_device_total_mem(std::size_t* bytes, int) {
  *bytes = std::size_t{10} << 30;
  return 0;
}
int fake_cu_get_error_name(int code, const char** name) {
  *name = code == 100 ? "CUDA_ERROR_NO_DEVICE" : "CUDA_ERROR_UNKNOWN";
  return 0;
}
int fake_nvml_init() { return 0; }
int fake_nvml_shutdown() { return 0; }
int fake_nvml_driver_version(char* buf, unsigned int len) {
  std::snprintf(buf, len, "537.58");
  return 0;
}
int fake_nvml_count(unsigned int* n) {
  *n = 1;
  return 0;
}
int fake_nvml_handle(unsigned int, void** h) {
  *h = nullptr;
  return 0;
}
int fake_nvml_name(void*, char* buf, unsigned int len) {
  std::snprintf(buf, len, "NVIDIA GeForce RTX 3080");
  return 0;
}

std::shared_ptr<FakeLibrary> fake_libcuda(const std::string& path) {
  return std::make_shared<FakeLibrary>(
      path,
      std::map<std::string, void*>{{"cuInit", reinterpret_cast<void*>(&fake_cu_init)},
                                   {"cuDriverGetVersion", reinterpret_cast<void*>(&fake_cu_driver_get_version)},
                                   {"cuDeviceGetCount", reinterpret_cast<void*>(&fake_cu_device_get_count)},
                                   {"cuDeviceGet", reinterpret_cast<void*>(&fake_cu_device_get)},
                                   {"cuDeviceGetName", reinterpret_cast<void*>(&fake_cu_device_get_name)},
                                   {"cuDeviceGetAttribute", reinterpret_cast<void*>(&fake_cu_device_get_attribute)},
                                   {"cuDeviceTotalMem_v2", reinterpret_cast<void*>(&fake_cu_device_total_mem)},
                                   {"cuGetErrorName", reinterpret_cast<void*>(&fake_cu_get_error_name)}});
}

std::shared_ptr<FakeLibrary> fake_nvml() {
  return std::make_shared<FakeLibrary>(
      "/usr/lib/wsl/lib/libnvidia-ml.so.1",
      std::map<std::string, void*>{{"nvmlInit_v2", reinterpret_cast<void*>(&fake_nvml_init)},
                                   {"nvmlShutdown", reinterpret_cast<void*>(&fake_nvml_shutdown)},
                                   {"nvmlSystemGetDriverVersion", reinterpret_cast<void*>(&fake_nvml_driver_version)},
                                   {"nvmlDeviceGetCount_v2", reinterpret_cast<void*>(&fake_nvml_count)},
                                   {"nvmlDeviceGetHandleByIndex_v2", reinterpret_cast<void*>(&fake_nvml_handle)},
                                   {"nvmlDeviceGetName", reinterpret_cast<void*>(&fake_nvml_name)}});
}

Report run(const FakeMachine& m) { return assess(gather_facts(m.env()), CheckPolicy{}); }

}  // namespace

TEST_CASE("a machine with nothing: every GPU check fails or skips with its reason", "[probes]") {
  FakeMachine m;
  auto report = run(m);
  CHECK(report.checks.size() == 15);
  CHECK(tfwsl::test::require_check(report, "linux.dxg").status == CheckStatus::skip);  // not WSL
  CHECK(tfwsl::test::require_check(report, "linux.dxg").summary.find("not WSL") != std::string::npos);
  CHECK(tfwsl::test::require_check(report, "linux.libcuda").status == CheckStatus::fail);
  CHECK(tfwsl::test::require_check(report, "linux.libcuda").summary == "libcuda.so.1 not found");
  CHECK(tfwsl::test::require_check(report, "gpu.visible").status == CheckStatus::fail);
  CHECK(tfwsl::test::require_check(report, "gpu.compute-capability").status == CheckStatus::skip);
  CHECK(tfwsl::test::require_check(report, "python.version").status == CheckStatus::fail);
  CHECK(tfwsl::test::require_check(report, "tf.installed").status == CheckStatus::fail);
  CHECK(tfwsl::test::require_check(report, "data.location").status == CheckStatus::skip);
  CHECK(report.exit_code() == 2);
}

TEST_CASE("WSL 2 without /dev/dxg says paravirtualization is off", "[probes]") {
  FakeMachine m;
  m.make_wsl2(false);
  auto report = run(m);
  CHECK(tfwsl::test::require_check(report, "linux.dxg").status == CheckStatus::fail);
  CHECK(tfwsl::test::require_check(report, "linux.dxg").summary ==
        "no /dev/dxg: not WSL 2, or GPU paravirtualization is off");
  CHECK(tfwsl::test::require_check(report, "linux.libcuda").summary == "libcuda.so.1 not found");
  CHECK(tfwsl::test::require_check(report, "linux.ldconfig").status == CheckStatus::ok);
  CHECK(tfwsl::test::require_check(report, "mem.effective").details.at(0) == "MemTotal: 16318464 kB");
}

TEST_CASE("[gpu] enabled=false in /etc/wsl.conf is named as what hid /dev/dxg, with its fix", "[probes]") {
  FakeMachine m;
  m.make_wsl2(false);
  m.file("/etc/wsl.conf", "[boot]\nsystemd=true\n\n# no GPU for this one\n[GPU]\n  Enabled = False\n");
  const auto facts = gather_facts(m.env());
  CHECK(facts.wsl.gpu_disabled);
  const auto dxg = tfwsl::test::require_check(assess(facts, CheckPolicy{}), "linux.dxg");
  CHECK(dxg.status == CheckStatus::fail);
  CHECK(dxg.summary == "no /dev/dxg: /etc/wsl.conf has [gpu] enabled=false, which hides the GPU");
  CHECK(dxg.fix.find("remove enabled=false under [gpu] in /etc/wsl.conf") == 0);
  FakeMachine on;
  on.make_wsl2();
  on.file("/etc/wsl.conf", "[gpu]\nenabled=true\n[automount]\nroot=/win\n");
  const auto kept = gather_facts(on.env());
  CHECK_FALSE(kept.wsl.gpu_disabled);
  CHECK(kept.wsl.automount_root == "/win/");
}

TEST_CASE("Docker and NVIDIA's container runtime in the distro are seen", "[probes]") {
  FakeMachine m;
  m.make_wsl2();
  CHECK(gather_facts(m.env()).stack.docker.empty());
  m.file("/usr/bin/docker");
  m.file("/usr/bin/nvidia-ctk");
  const auto facts = gather_facts(m.env());
  CHECK(facts.stack.docker == "/usr/bin/docker");
  CHECK(facts.stack.nvidia_container_runtime == "/usr/bin/nvidia-ctk");
}

TEST_CASE("WSL 1 is named as the reason", "[probes]") {
  FakeMachine m;
  m.file("/proc/sys/kernel/osrelease", "4.4.0-19041-Microsoft\n");
  m.file("/proc/version", "Linux version 4.4.0-19041-Microsoft (Microsoft@Microsoft.com)\n");
  auto facts = gather_facts(m.env());
  CHECK(facts.wsl.kind == agent_api::WslKind::wsl1);
  auto report = assess(facts, CheckPolicy{});
  CHECK(tfwsl::test::require_check(report, "linux.dxg").status == CheckStatus::fail);
  CHECK(tfwsl::test::require_check(report, "linux.dxg").summary.find("WSL 1") != std::string::npos);
}

TEST_CASE("a working WSL 2 GPU passes the GPU checks", "[probes]") {
  g_cu_init_result = 0;
  g_device_count = 1;
  FakeMachine m;
  m.make_wsl2();
  m.loader->add("libcuda.so.1", fake_libcuda("/usr/lib/wsl/lib/libcuda.so.1.1"));
  m.loader->add("libnvidia-ml.so.1", fake_nvml());
  m.runner->on({"dpkg-query"}, ProcessOutcome{0, "python3\tii \ncuda-toolkit-12-2\tii \n", "", false, {}});
  auto facts = gather_facts(m.env());
  CHECK(facts.gpu.libcuda_loaded);
  REQUIRE(facts.gpu.devices.size() == 1);
  CHECK(facts.gpu.devices[0].cc_major == 8);
  CHECK(facts.gpu.devices[0].cc_minor == 6);
  CHECK(facts.gpu.nvml_driver_version == "537.58");
  CHECK(facts.gpu.nvml_source == "nvml");
  auto report = assess(facts, CheckPolicy{});
  CHECK(tfwsl::test::require_check(report, "linux.dxg").status == CheckStatus::ok);
  CHECK(tfwsl::test::require_check(report, "linux.libcuda").status == CheckStatus::ok);
  CHECK(tfwsl::test::require_check(report, "linux.no-linux-driver").status == CheckStatus::ok);
  CHECK(tfwsl::test::require_check(report, "gpu.visible").status == CheckStatus::ok);
  CHECK(tfwsl::test::require_check(report, "gpu.visible").summary.find("RTX 3080") != std::string::npos);
  CHECK(tfwsl::test::require_check(report, "gpu.compute-capability").status == CheckStatus::ok);
  CheckPolicy strict;
  strict.min_cc_major = 9;
  CHECK(tfwsl::test::require_check(assess(facts, strict), "gpu.compute-capability").status == CheckStatus::fail);
}

TEST_CASE("cuInit failing is reported with the CUDA error name", "[probes]") {
  g_cu_init_result = 100;
  FakeMachine m;
  m.make_wsl2();
  m.loader->add("libcuda.so.1", fake_libcuda("/usr/lib/wsl/lib/libcuda.so.1.1"));
  auto report = run(m);
  g_cu_init_result = 0;
  CHECK(tfwsl::test::require_check(report, "gpu.visible").status == CheckStatus::fail);
  CHECK(tfwsl::test::require_check(report, "gpu.visible").summary.find("CUDA_ERROR_NO_DEVICE") != std::string::npos);
}

TEST_CASE("a Linux NVIDIA driver inside WSL is found and blamed", "[probes]") {
  FakeMachine m;
  m.make_wsl2();
  m.file("/usr/lib/x86_64-linux-gnu/libcuda.so.535.104.05");
  m.loader->add("libcuda.so.1", fake_libcuda("/usr/lib/x86_64-linux-gnu/libcuda.so.535.104.05"));
  m.runner->on(
      {"dpkg-query"},
      ProcessOutcome{
          0, "nvidia-utils-535\tii \ncuda-toolkit-12-2\tii \ncuda-12-2\tii \nnvidia-driver-535\trc \n", "", false, {}});
  auto facts = gather_facts(m.env());
  CHECK(facts.driver.packages == std::vector<std::string>{"nvidia-utils-535", "cuda-12-2"});
  auto report = assess(facts, CheckPolicy{});
  CHECK(tfwsl::test::require_check(report, "linux.no-linux-driver").status == CheckStatus::fail);
  CHECK(tfwsl::test::require_check(report, "linux.no-linux-driver").fix.find("nvidia-utils-535") != std::string::npos);
  CHECK(tfwsl::test::require_check(report, "linux.libcuda").status == CheckStatus::fail);
  CHECK(tfwsl::test::require_check(report, "linux.libcuda").summary.find("not the WSL stub") != std::string::npos);
}

TEST_CASE("native Linux with a GPU: WSL-only checks say not WSL, the GPU is seen", "[probes]") {
  FakeMachine m;
  m.file("/proc/sys/kernel/osrelease", "6.1.0-18-amd64\n");
  m.file("/proc/version", "Linux version 6.1.0-18-amd64 (debian-kernel@lists.debian.org)\n");
  m.loader->add("libcuda.so.1", fake_libcuda("/usr/lib/x86_64-linux-gnu/libcuda.so.550.54.15"));
  m.loader->add("libnvidia-ml.so.1", fake_nvml());
  m.runner->on({"dpkg-query"}, ProcessOutcome{0, "nvidia-driver-550\tii \n", "", false, {}});
  auto report = run(m);
  for (const char* id : {"linux.dxg", "linux.ldconfig", "linux.no-linux-driver"}) {
    CHECK(tfwsl::test::require_check(report, id).status == CheckStatus::skip);
    CHECK(tfwsl::test::require_check(report, id).summary.find("not WSL") != std::string::npos);
  }
  CHECK(tfwsl::test::require_check(report, "linux.libcuda").status == CheckStatus::ok);
  CHECK(tfwsl::test::require_check(report, "gpu.visible").status == CheckStatus::ok);
}

TEST_CASE("nvidia-smi answers when NVML cannot be loaded", "[probes]") {
  FakeMachine m;
  m.make_wsl2();
  m.runner->on({"nvidia-smi"}, ProcessOutcome{0, "537.58, NVIDIA GeForce RTX 3080\n", "", false, {}});
  auto gpu = probe_gpu(m.env());
  CHECK(gpu.nvml_source == "nvidia-smi");
  CHECK(gpu.nvml_driver_version == "537.58");
  CHECK(gpu.nvml_device_names == std::vector<std::string>{"NVIDIA GeForce RTX 3080"});
}

TEST_CASE("CUDA toolkits, Python version and data paths", "[probes]") {
  FakeMachine m;
  m.make_wsl2();
  m.file("/usr/local/cuda-12.2/version.json", R"({"cuda":{"name":"CUDA SDK","version":"12.2.140"}})");
  m.file("/usr/local/cuda-12.2/bin/nvcc");
  m.runner->on({"python3", "--version"}, ProcessOutcome{0, "Python 3.12.3\n", "", false, {}});
  auto env = m.env();
  env.data_paths = {"/mnt/c/Users/me/data", "/home/me/data"};
  auto facts = gather_facts(env);
  REQUIRE(facts.stack.toolkits.size() == 1);
  CHECK(facts.stack.toolkits[0].version == "12.2.140");
  CHECK(facts.stack.nvcc == "/usr/local/cuda-12.2/bin/nvcc");
  auto policy = check_policy_for_profile("");  // the default profile: TF 2.15, CUDA toolkit 12.2
  REQUIRE(policy);
  auto report = assess(facts, *policy);
  CHECK(tfwsl::test::require_check(report, "cuda.toolkit").status ==
        CheckStatus::ok);  // 12.2.140 is in the 12.2 series
  CHECK(tfwsl::test::require_check(report, "python.version").status ==
        CheckStatus::fail);  // 3.12 is outside TF 2.15's 3.9-3.11
  CHECK(assess(facts, CheckPolicy{}).checks.size() == report.checks.size());
  CHECK(tfwsl::test::require_check(assess(facts, CheckPolicy{}), "python.version").status ==
        CheckStatus::ok);          // no bounds set
  policy->cuda_toolkit = "12.20";  // a series the prefix "12.2" would have matched
  CHECK(tfwsl::test::require_check(assess(facts, *policy), "cuda.toolkit").status == CheckStatus::warn);
  CHECK(tfwsl::test::require_check(report, "python.version").summary.find("3.12.3") != std::string::npos);
  CHECK(tfwsl::test::require_check(report, "data.location").status == CheckStatus::warn);
  CHECK(tfwsl::test::require_check(report, "data.location").summary.find("/mnt/c/Users/me/data") != std::string::npos);
  CHECK(tfwsl::test::require_check(report, "data.location").summary.find("/home/me/data") == std::string::npos);
}

TEST_CASE("a probe that finishes past the report's deadline is reported as timed out, its part not kept", "[probes]") {
  FakeMachine m;
  // A runner that ignores the limit (the real one kills at it): the probe is joined all the same,
  // and what it brings after the deadline (the longest limit plus a 2 s margin) is not used.
  m.runner->on({"dpkg-query"}, [](const ProcessRequest&) -> Result<ProcessOutcome> {
    std::this_thread::sleep_for(std::chrono::milliseconds(2400));
    return ProcessOutcome{0, "nvidia-utils-535\tii \n", "", false, {}};
  });
  auto env = m.env();
  env.probe_timeout = std::chrono::milliseconds(100);
  env.tf_timeout = std::chrono::milliseconds(100);
  auto facts = gather_facts(env);
  CHECK(facts.timed_out == std::vector<std::string>{"linux-driver"});
  CHECK(facts.driver.packages.empty());
  auto report = assess(facts, CheckPolicy{});
  CHECK(tfwsl::test::require_check(report, "linux.no-linux-driver").summary.find("time limit") != std::string::npos);
}

TEST_CASE("a library child killed at its limit: that probe is timed out, the others are kept", "[probes]") {
  FakeMachine m;
  m.make_wsl2();
  auto runner = std::make_shared<RecordingProcessRunner>();
  runner->on({"stopped-prober", "probe-libraries", "gpu"}, ProcessOutcome{-1, "", "", true, {}});
  runner->on({"stopped-prober", "probe-libraries", "cudnn"},
             ProcessOutcome{0, R"({"found":false,"library":"","version":null,"error":"no cuDNN"})", "", false, {}});
  auto env = m.env();
  env.runner = runner;
  env.library_prober = "stopped-prober";
  auto facts = gather_facts(env);
  CHECK(facts.timed_out == std::vector<std::string>{"gpu"});
  CHECK(facts.stack.cudnn_error == "no cuDNN");
  CHECK(facts.wsl.kernel.find("WSL2") != std::string::npos);
  auto report = assess(facts, CheckPolicy{});
  CHECK(tfwsl::test::require_check(report, "gpu.visible").summary.find("time limit") != std::string::npos);
}

TEST_CASE("a TensorFlow log cut inside a UTF-8 character still gives facts that serialise", "[probes]") {
  // The probe keeps the log's last 64 KiB: a cut inside "€" (3 bytes) or a stray byte must not make
  // /v1/facts unserialisable (nlohmann::json's dump throws on invalid UTF-8).
  FakeMachine m;
  std::string log;
  for (int i = 0; i < 30000; ++i) log += "\xe2\x82\xac";  // 90000 bytes: the 64 KiB cut is mid-character
  log += "\nW0000 bad byte \xff here\n";
  m.runner->on({"python3", "-c"}, ProcessOutcome{1, "", log, false, {}});
  auto tf = probe_tensorflow(m.env());
  CHECK(is_valid_utf8(tf.stderr_text));
  for (const auto& line : tf.stderr_tail) CHECK(is_valid_utf8(line));
  agent_api::LinuxFacts facts;
  facts.tf = tf;
  CHECK_NOTHROW(agent_api::to_json(facts).dump());
}
