// run_doctor folds its report by the needs of the check table (common/check/check_table.hpp).
#include <catch2/catch.hpp>

#include "common/check/check_table.hpp"
#include "win/doctor/doctor.hpp"

using namespace tfwsl;
using namespace tfwsl::doctor;

namespace {
// Native Linux, the agent unreachable: every host and wsl.exe check skips, every agent check is unknown.
DoctorEnvironment folding_native_env(bool agent_found) {
  DoctorEnvironment env;
  env.is_windows = false;
  env.host_facts = [] { return host::HostFacts{}; };
  env.wslconfig = [] { return WslconfigFacts{}; };
  env.linux_side = [agent_found](const std::string&) {
    LinuxSide side;
    if (!agent_found) {
      side.error = "tfwsl-agent was not found";
      return side;
    }
    side.link = AgentLink::http;
    side.description = "tfwsl-agent 0.1.0 in this machine over http (127.0.0.1:1)";
    agent_api::LinuxFacts facts;
    facts.wsl.kind = agent_api::WslKind::wsl2;
    facts.wsl.dxg = true;
    side.facts = facts;
    return side;
  };
  return env;
}
}  // namespace

TEST_CASE("native doctor: the host, wsl.exe and driver-parity skips fold into one line under platform.windows",
          "[doctor][fold]") {
  auto result = run_doctor(folding_native_env(true));
  for (const auto& id : check_ids(CheckSource::host)) CHECK(result.report.find(id)->blocked_by == "platform.windows");
  CHECK(result.report.find("wsl.distro")->blocked_by == "platform.windows");
  CHECK(result.report.find("gpu.driver-parity")->blocked_by == "platform.windows");  // no Windows driver to compare
  CHECK(result.report.find("wsl.agent")->blocked_by.empty());
  const auto text = render_text(result.report, {});
  INFO(text);
  CHECK(text.find("11 checks not run: not Windows: the host and WSL checks do not apply\n") != std::string::npos);
  CHECK(text.find("host.tdr") == std::string::npos);
  CHECK(render_text(result.report, {true, false}).find("  - host.tdr: ") != std::string::npos);
}

TEST_CASE("native doctor without an agent: one issue, wsl.agent, with the agent's checks folded under it",
          "[doctor][fold]") {
  auto result = run_doctor(folding_native_env(false));
  const auto& report = result.report;
  CHECK(report.find("wsl.agent")->status == CheckStatus::fail);
  CHECK(report.find("wsl.agent")->blocked_by.empty());  // its prerequisite only does not apply here
  for (const auto& id : check_ids(CheckSource::agent)) {
    INFO(id);
    CHECK(report.find(id)->blocked_by == "wsl.agent");
  }
  CHECK(report.problem_count() == 1);
  CHECK(report.exit_code() == 2);
  CHECK(to_json(report)["summary"]["fix_first"]["id"] == "wsl.agent");
}
