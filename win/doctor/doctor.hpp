#pragma once
// `tfwsl doctor`: host, WSL and agent checks merged into one report (ids: doctor_checks.hpp).
// The sources run in parallel, each with a time limit; a source past its limit leaves its checks
// as `skip` with the reason. Each source runs on a thread that run_doctor joins before it returns
// (joined_task.hpp), so the sources may use what the caller owns. The ports make it testable: the
// host facts, wsl.exe (WslClient over a ProcessRunner), the .wslconfig reader and the Linux side
// (the agent over the bridge: through wsl.exe on Windows, as a child on the native Linux build;
// agent_side.hpp). The agent only reports facts: the distro's verdicts are judged here (common/judge)
// with linux_policy, from the same profile as host_policy, so a profile file on the CLI side judges
// the distro too.

#include <chrono>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "common/agent_api/api_types.hpp"
#include "common/agent_api/linux_facts.hpp"
#include "common/check/check.hpp"
#include "common/judge/check_policy.hpp"
#include "win/doctor/doctor_checks.hpp"
#include "win/host/host_checks.hpp"
#include "win/host/host_facts.hpp"
#include "win/wsl/wsl_client.hpp"

namespace tfwsl::doctor {

struct LinuxSide {
  AgentLink link = AgentLink::none;
  std::string description;                     // "tfwsl-agent 0.1.0 in Ubuntu-22.04 over http (127.0.0.1:41234)"
  std::string error;                           // why there is no link
  std::string fix;                             // with no link: what to do, when known better than the generic advice
  std::string localhost_problem;               // with stdio_* links
  bool forwarded = false;                      // 127.0.0.1 went through WSL's localhost forwarding (Windows)
  std::optional<agent_api::LinuxFacts> facts;  // the agent's /v1/facts, judged by run_doctor
  std::optional<agent_api::GpuResponse> gpu;   // facts->gpu, for driver parity
  nlohmann::json info;                         // /v1/info, for the bundle
  std::string installed_version;               // the installed agent's, when it is not tfwsl's (the shipped one ran)
};

struct DoctorEnvironment {
  bool is_windows = false;
  std::function<host::HostFacts()> host_facts;
  wsl::WslClient* wsl = nullptr;  // Windows only
  std::function<WslconfigFacts()> wslconfig;
  std::function<LinuxSide(const std::string& distro)> linux_side;
  std::string distro;                   // --distro; empty: the default
  std::vector<std::string> data_paths;  // --data: decides data.location (data_location.hpp)
  host::HostPolicy host_policy;
  judge::CheckPolicy linux_policy;  // the same profile's policy for the distro's facts
  std::chrono::milliseconds host_timeout{std::chrono::seconds(60)};
  std::chrono::milliseconds wsl_timeout{std::chrono::seconds(90)};
  std::chrono::milliseconds agent_timeout{std::chrono::seconds(300)};
  // The checks of the profile's route beyond the venv's (the container route's), run after the other
  // sources; may be empty.
  std::function<std::vector<CheckResult>()> route_checks;
  // Told what the doctor now waits on, from run_doctor's thread, for a status line. May be empty.
  std::function<void(const std::string& step)> progress;
};

// What the sources gave, once all of them have ended: what run_doctor judges, and what
// `tfwsl profile diff` compares with a profile (the policies of `env` are not used here).
struct MachineFacts {
  host::HostFacts host;
  bool host_in_time = false;
  WslconfigFacts wslconfig;
  WslFacts wsl;
  std::vector<CheckResult> wsl_checks;  // wsl.installed, .version, .default-version, .distro
  std::string distro;                   // the distribution chosen (--distro or WSL's default); empty natively
  LinuxSide linux_side;
};

struct DoctorResult {
  Report report;
  MachineFacts machine;  // what the sources gave, typed: what the header and the renderers read
  nlohmann::json facts;  // everything behind the report, for --bundle
  int wsl_starts = 0;
  std::chrono::milliseconds elapsed{0};
};

DoctorResult run_doctor(const DoctorEnvironment& env);

MachineFacts gather_machine_facts(const DoctorEnvironment& env);

// Parses what wsl.exe said into WslFacts (the default version from the registry as a fallback).
WslFacts wsl_facts_from(const Result<wsl::WslReply>& list, const Result<wsl::WslReply>& version,
                        const std::optional<Result<wsl::WslReply>>& status,
                        std::optional<int> registry_default_version);

}  // namespace tfwsl::doctor
