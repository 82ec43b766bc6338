// The doctor's own verdicts (WSL, localhost forwarding, driver parity, mem.effective, .wslconfig)
// and the report completion that keeps every id.
#include "win/doctor/doctor_checks.hpp"

#include <algorithm>
#include <atomic>
#include <catch2/catch.hpp>
#include <memory>
#include <thread>

#include "common/check/check_table.hpp"
#include "common/judge/check_policy.hpp"
#include "tests/support/driver_facts.hpp"
#include "tests/support/recording_process_runner.hpp"
#include "tests/support/test_environment.hpp"
#include "win/doctor/doctor.hpp"
#include "win/wsl/wsl_client.hpp"

using namespace tfwsl;
using namespace tfwsl::doctor;

namespace {

WslFacts wsl_with(std::vector<parse::WslDistro> distros) {
  WslFacts f;
  f.ran = true;
  f.distros = std::move(distros);
  f.wsl_version = "2.1.5.0";
  return f;
}

parse::WslDistro distro(std::string name, int version, bool is_default) {
  parse::WslDistro d;
  d.name = std::move(name);
  d.state = "Running";
  d.version = version;
  d.is_default = is_default;
  return d;
}

}  // namespace

TEST_CASE("wsl.distro: the default distro on WSL 1 fails with the set-version fix") {
  std::string chosen;
  auto r = check_wsl_distro(wsl_with({distro("Ubuntu-18.04", 1, true), distro("Ubuntu-22.04", 2, false)}), "", chosen);
  CHECK(r.status == CheckStatus::fail);
  CHECK(r.fix.find("wsl --set-version Ubuntu-18.04 2") != std::string::npos);
  r = check_wsl_distro(wsl_with({distro("Ubuntu-18.04", 1, true), distro("Ubuntu-22.04", 2, false)}), "Ubuntu-22.04",
                       chosen);
  CHECK(r.status == CheckStatus::ok);
  CHECK(chosen == "Ubuntu-22.04");
  r = check_wsl_distro(wsl_with({distro("Ubuntu-22.04", 2, true)}), "Debian", chosen);
  CHECK(r.status == CheckStatus::fail);
  CHECK(r.fix == "pick one of the installed distributions with --distro: Ubuntu-22.04");
  CHECK(chosen.empty());
}

TEST_CASE("wsl.distro: without a default, the fix names the installed distributions") {
  std::string chosen;
  auto r = check_wsl_distro(
      wsl_with({distro("docker-desktop", 2, false), distro("Ubuntu-22.04", 2, false), distro("Debian", 2, false)}), "",
      chosen);
  CHECK(r.status == CheckStatus::fail);
  CHECK(r.fix == "choose one: wsl --set-default Ubuntu-22.04 (or another of Ubuntu-22.04, Debian)");
}

TEST_CASE("wsl.distro: no distribution fails with the install fix") {
  WslFacts f = wsl_with({});
  f.list_failure.kind = wsl::WslFailureKind::no_distro;
  std::string chosen;
  auto r = check_wsl_distro(f, "", chosen);
  CHECK(r.status == CheckStatus::fail);
  CHECK(r.fix.rfind("tfwsl provision installs the profile's distribution", 0) == 0);
  CHECK(r.fix_command == std::vector<std::string>{"provision"});
}

TEST_CASE("wsl.version: an inbox wsl.exe warns with the update fix, Store WSL is ok") {
  WslFacts f = wsl_with({distro("Ubuntu", 2, true)});
  CHECK(check_wsl_version(f).status == CheckStatus::ok);
  f.wsl_version.reset();
  f.version_failure.kind = wsl::WslFailureKind::cli_too_old;
  auto r = check_wsl_version(f);
  CHECK(r.status == CheckStatus::warn);
  CHECK(r.fix.find("wsl.exe --update") != std::string::npos);
  f.ran = false;
  CHECK(check_wsl_installed(f).status == CheckStatus::fail);
}

TEST_CASE("wsl.version: WSL with its own container CLI (wslc) says so and marks it, an older one does not") {
  WslFacts f = wsl_with({distro("Ubuntu", 2, true)});
  f.wsl_version = "2.9.3.0";
  auto r = check_wsl_version(f);
  CHECK(r.status == CheckStatus::ok);
  CHECK(r.values["wslc"] == true);
  CHECK(std::any_of(r.details.begin(), r.details.end(),
                    [](const std::string& d) { return d.find("wslc, WSL's own container CLI") != std::string::npos; }));
  f.wsl_version = "2.7.0.0";
  r = check_wsl_version(f);
  CHECK_FALSE(r.values.contains("wslc"));
}

TEST_CASE("wsl.default-version: 1 warns, 2 ok, unknown on an inbox WSL skips") {
  WslFacts f = wsl_with({});
  f.default_version = 1;
  f.default_version_source = "wsl --status";
  CHECK(check_wsl_default_version(f).status == CheckStatus::warn);
  f.default_version = 2;
  CHECK(check_wsl_default_version(f).status == CheckStatus::ok);
  f.default_version.reset();
  f.wsl_version.reset();
  CHECK(check_wsl_default_version(f).status == CheckStatus::skip);
}

TEST_CASE("localhost forwarding: http ok, stdio fallback warns with the fix, an impostor fails") {
  CHECK(check_localhost_forwarding(AgentLink::http, "", true).status == CheckStatus::ok);
  auto r = check_localhost_forwarding(AgentLink::stdio_fallback, "127.0.0.1:5 does not answer", true);
  CHECK(r.status == CheckStatus::warn);
  CHECK(r.fix.find("wsl --shutdown") != std::string::npos);
  CHECK(r.details.at(0).find("does not answer") != std::string::npos);
  CHECK(check_localhost_forwarding(AgentLink::stdio_impostor, "x", true).status == CheckStatus::fail);
  CHECK(check_localhost_forwarding(AgentLink::none, "", true).status == CheckStatus::skip);
}

TEST_CASE("localhost forwarding on the native Linux build: http skips (nothing forwarded), an impostor still fails") {
  auto http = check_localhost_forwarding(AgentLink::http, "", false);
  CHECK(http.status == CheckStatus::skip);
  CHECK(http.summary.find("not on Windows") != std::string::npos);
  auto fallback = check_localhost_forwarding(AgentLink::stdio_fallback, "127.0.0.1:5 does not answer", false);
  CHECK(fallback.status == CheckStatus::warn);
  CHECK(fallback.summary.find("WSL") == std::string::npos);
  auto impostor = check_localhost_forwarding(AgentLink::stdio_impostor, "x", false);
  CHECK(impostor.status == CheckStatus::fail);
  CHECK(impostor.fix.find("ss -ltnp") != std::string::npos);
}

TEST_CASE("an unreachable agent fails wsl.agent and names the checks it leaves unknown") {
  auto r = check_agent(AgentLink::none, "", "wsl.exe exited", true);
  CHECK(r.status == CheckStatus::fail);
  CHECK(r.details.at(0).find("tf.gpu") != std::string::npos);
  CHECK(r.fix.find("wsl --shutdown") != std::string::npos);
  CHECK(check_agent(AgentLink::http, "tfwsl-agent 0.1.0", "", true).status == CheckStatus::ok);
  // Natively there is no WSL to restart: the message itself says what to do.
  CHECK(check_agent(AgentLink::none, "", "tfwsl-agent was not found", false).fix.find("wsl --shutdown") ==
        std::string::npos);
  // A known cause brings its own fix (no tfwsl-agent beside an installed tfwsl.exe: reinstall).
  CHECK(check_agent(AgentLink::none, "", "no tfwsl-agent ships next to tfwsl.exe", true, "reinstall tfwsl").fix ==
        "reinstall tfwsl");
}

TEST_CASE("driver parity: 537.58 on Windows vs 546.80 in NVML warns with wsl --shutdown") {
  auto r = check_driver_parity(test::windows_driver("537.58"), test::nvml("546.80"));
  CHECK(r.status == CheckStatus::warn);
  CHECK(r.fix.find("wsl --shutdown") != std::string::npos);
  CHECK(check_driver_parity(test::windows_driver("546.80"), test::nvml("546.80")).status == CheckStatus::ok);
  // A Linux driver's three-part number never matches: that is a Linux driver inside WSL.
  CHECK(check_driver_parity(test::windows_driver("546.80"), test::nvml("546.80.01")).status == CheckStatus::warn);
  CHECK(check_driver_parity(test::windows_driver("546.80"), std::nullopt).status == CheckStatus::skip);
  CHECK(check_driver_parity(test::windows_driver("546.80"), test::nvml("")).status == CheckStatus::warn);
  host::HostFacts linux_host;
  CHECK(check_driver_parity(linux_host, test::nvml("546.80")).status == CheckStatus::skip);
}

TEST_CASE(".wslconfig: absent is ok, memory= is read, a malformed line is reported") {
  std::optional<std::uint64_t> memory;
  WslconfigFacts none;
  auto checks = check_wslconfig(none, {}, memory);
  CHECK(checks.at(0).status == CheckStatus::ok);
  CHECK_FALSE(memory);
  WslconfigFacts file{true, "C:\\Users\\me\\.wslconfig", "", "[wsl2]\r\nmemory=16GB\r\n"};
  checks = check_wslconfig(file, 32ull << 30, memory);
  CHECK(checks.at(0).status == CheckStatus::ok);
  CHECK(checks.at(1).id == "wslconfig.memory");
  CHECK(memory == std::optional<std::uint64_t>(16ull << 30));
  // The value as the file writes it, for the compliance fact wslconfig_memory_set (issue 42).
  CHECK(checks.at(1).values == nlohmann::json({{"memory", "16GB"}, {"configured_bytes", 16ull << 30}}));
  CHECK(check_wslconfig(none, {}, memory).at(1).values.empty());
  WslconfigFacts bad{true, "p", "", "[wsl2] memory=48GB\r\n"};
  checks = check_wslconfig(bad, {}, memory);
  CHECK(checks.at(0).status != CheckStatus::ok);
}

TEST_CASE("complete_report keeps the id order and marks missing ids skip with the reason") {
  CheckResult a;
  a.id = "gpu.driver-parity";
  a.status = CheckStatus::warn;
  auto report = complete_report({a}, "unknown: the agent could not be reached");
  REQUIRE(report.checks.size() == check_ids().size());
  CHECK(report.checks.front().id == "host.windows-build");
  CHECK(report.find("gpu.driver-parity")->status == CheckStatus::warn);
  CHECK(report.find("tf.gpu")->status == CheckStatus::skip);
  CHECK(report.find("tf.gpu")->summary.find("agent could not be reached") != std::string::npos);
  CHECK(report.exit_code() == 1);
}

TEST_CASE("wsl facts: an inbox wsl.exe's --status fills the default version, the registry is the fallback") {
  wsl::WslReply list;
  list.text = "  NAME      STATE           VERSION\n* Ubuntu    Running         2\n";
  wsl::WslReply version;
  version.exit_code = -1;
  version.failure.kind = wsl::WslFailureKind::cli_too_old;
  wsl::WslReply status;
  status.text = "Default Distribution: Ubuntu\nDefault Version: 1\n";
  auto f = wsl_facts_from(list, version, Result<wsl::WslReply>(status), 2);
  REQUIRE(f.distros.size() == 1);
  CHECK(f.distros[0].is_default);
  CHECK(f.default_version == std::optional<int>(1));
  CHECK(f.version_failure.kind == wsl::WslFailureKind::cli_too_old);
  f = wsl_facts_from(list, version, std::nullopt, 2);
  CHECK(f.default_version == std::optional<int>(2));
  CHECK(f.default_version_source.find("registry") != std::string::npos);
}

namespace {
// wsl.installed from what the real driver says when wsl.exe cannot be run.
CheckResult wsl_installed_after(test::RecordingProcessRunner& runner) {
  wsl::WslClient client(runner, wsl::WslSettings{});
  auto list = client.list_verbose();
  auto version = client.version();
  return check_wsl_installed(wsl_facts_from(list, version, std::nullopt, std::nullopt));
}

std::size_t count_of(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}
}  // namespace

TEST_CASE("wsl.installed: wsl.exe not found prints one fix, the driver's install fix, on the fix line") {
  test::RecordingProcessRunner runner;  // answers nothing: every program is not found
  auto r = wsl_installed_after(runner);
  CHECK(r.status == CheckStatus::fail);
  CHECK(r.summary.find("fix:") == std::string::npos);
  CHECK(r.summary.find("WSL is not installed") != std::string::npos);
  CHECK(r.fix.rfind("run 'wsl.exe --install' in an administrator terminal", 0) == 0);
  CHECK(count_of(r.summary + "\n" + r.fix, "--install") == 1);
}

TEST_CASE("wsl.installed: a wsl.exe that does not answer says wsl --shutdown, not install WSL") {
  test::RecordingProcessRunner runner;
  ProcessOutcome hung;
  hung.timed_out = true;
  runner.on({"wsl.exe"}, hung);
  auto r = wsl_installed_after(runner);
  CHECK(r.status == CheckStatus::fail);
  CHECK(r.summary.find("did not answer within") != std::string::npos);
  CHECK(r.summary.find("fix:") == std::string::npos);
  CHECK(r.fix.rfind("run 'wsl --shutdown' and try again", 0) == 0);
  CHECK(r.fix.find("install") == std::string::npos);
  // The doctor's own deadline (wsl.exe still running when the report is due) names the same fix.
  WslFacts late;
  late.run_error = "wsl.exe did not answer in time; fix: run 'wsl --shutdown' and try again";
  CHECK(check_wsl_installed(late).fix == "run 'wsl --shutdown' and try again");
}

namespace {
// A doctor run with fakes for every port (no processes): the merge, the parallel sources, the ids.
DoctorEnvironment native_linux_env() {
  DoctorEnvironment env;
  env.is_windows = false;
  env.host_facts = [] { return host::HostFacts{}; };
  env.wslconfig = [] { return WslconfigFacts{}; };
  env.linux_side = [](const std::string&) {
    LinuxSide side;
    side.link = AgentLink::http;
    side.description = "tfwsl-agent 0.1.0 in this machine over http (127.0.0.1:1)";
    agent_api::LinuxFacts facts;
    facts.wsl.kind = agent_api::WslKind::wsl2;
    facts.wsl.dxg = true;
    facts.system.mem_total_kb = 16318464;
    facts.stack.toolkits = {{"/usr/local/cuda-12.3", "12.3.107"}};
    side.facts = facts;
    return side;
  };
  return env;
}
}  // namespace

// These run run_doctor's threads for real, which it joins before it returns (joined_task.hpp).
// Under Wine they once hung in about one run in five under CPU load, while run_doctor detached its
// threads: a detached thread still running at process exit.

TEST_CASE("native Linux doctor: host and wsl checks skip with the reason, Linux checks run, every id appears") {
  auto result = run_doctor(native_linux_env());
  CHECK(result.report.checks.size() == check_ids().size());
  CHECK(result.report.find("host.nvidia-driver")->status == CheckStatus::skip);
  CHECK(result.report.find("wsl.distro")->summary.find("not on Windows") != std::string::npos);
  CHECK(result.report.find("linux.dxg")->status == CheckStatus::ok);
  CHECK(result.report.find("mem.effective")->status == CheckStatus::ok);
  CHECK(result.report.find("wsl.agent")->status == CheckStatus::ok);
  CHECK(result.report.find("wsl.localhost-forwarding")->status == CheckStatus::skip);
  CHECK(result.wsl_starts == 0);
  CHECK(result.facts["linux"]["system"]["mem_total_kb"] == 16318464);  // the facts behind the verdicts, for --bundle
}

TEST_CASE("the distro's verdicts follow the CLI-side profile, a file one included") {
  // The facts hold CUDA toolkit 12.3: the default profile (12.2) warns, a profile file asking for
  // 12.3 is satisfied. Before the doctor judged /v1/facts itself, a file profile never reached the
  // agent, which judged by its default.
  auto env = native_linux_env();
  auto builtin = judge::check_policy_for_profile("");
  REQUIRE(builtin);
  env.linux_policy = *builtin;
  const auto first = run_doctor(env);
  const auto* by_default = first.report.find("cuda.toolkit");
  REQUIRE(by_default);
  CHECK(by_default->status == CheckStatus::warn);
  CHECK(by_default->summary == "CUDA toolkit 12.3.107 found, the profile wants 12.2");

  test::TempDir dir;
  const auto file = dir.path() / "team.yaml";
  test::write_file(file,
                   "name: team\ndistro: Ubuntu-22.04\ncuda: { toolkit: \"12.3\", cudnn: \"8.9\" }\n"
                   "python: { version: \"3.10\", venv: ~/.venvs/team }\n"
                   "tensorflow: { version: \"2.16.*\", extras: [and-cuda] }\n");
  auto from_file = judge::check_policy_for_profile(file.string());
  REQUIRE(from_file);
  env.linux_policy = *from_file;
  const auto second = run_doctor(env);
  const auto* judged = second.report.find("cuda.toolkit");
  REQUIRE(judged);
  CHECK(judged->status == CheckStatus::ok);
  CHECK(judged->summary.find("the 12.3 series the profile wants") != std::string::npos);
}

TEST_CASE("a Linux side past its time limit leaves its checks skip and says so") {
  auto env = native_linux_env();
  env.agent_timeout = std::chrono::milliseconds(50);
  env.linux_side = [](const std::string&) {
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    return LinuxSide{};
  };
  auto result = run_doctor(env);
  CHECK(result.report.find("wsl.agent")->status == CheckStatus::fail);
  CHECK(result.report.find("tf.gpu")->status == CheckStatus::skip);
  CHECK(result.report.find("tf.gpu")->summary.find("did not finish in time") != std::string::npos);
}

TEST_CASE("no source outlives run_doctor: late sources are reported as timed out, then waited for") {
  // Each source marks when it ends, on an object that is destroyed right after run_doctor returns:
  // a source still running then would write into freed memory.
  struct Ends {
    std::atomic<int> host{0}, wslconfig{0}, linux_side{0};
  };
  auto ends = std::make_unique<Ends>();
  auto env = native_linux_env();
  env.host_timeout = std::chrono::milliseconds(20);
  env.agent_timeout = std::chrono::milliseconds(20);
  env.host_facts = [&ends] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    ends->host = 1;
    return host::HostFacts{};
  };
  env.wslconfig = [&ends] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    ends->wslconfig = 1;
    return WslconfigFacts{};
  };
  env.linux_side = [&ends](const std::string&) {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    ends->linux_side = 1;
    return LinuxSide{};
  };
  auto result = run_doctor(env);
  CHECK(ends->host == 1);
  CHECK(ends->wslconfig == 1);
  CHECK(ends->linux_side == 1);
  ends.reset();
  CHECK(result.report.find("host.nvidia-driver")->summary.find("timed out") != std::string::npos);
  CHECK(result.report.find("tf.gpu")->summary.find("did not finish in time") != std::string::npos);
  CHECK(result.elapsed >= std::chrono::milliseconds(300));
}
