// tfwsl doctor: gathers the host facts, asks wsl.exe, starts the agent through the bridge (or, on
// the native Linux build, runs the agent's checks in-process), and prints one report.
#include "win/commands/doctor_command.hpp"

#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>

#include <spdlog/spdlog.h>

#include "common/agent_api/api_types.hpp"
#include "common/agent_client/agent_bridge.hpp"
#include "common/compat/compat_db.hpp"
#include "common/core/exit_codes.hpp"
#include "common/doctor/doctor.hpp"
#include "common/doctor/host_policy.hpp"
#include "common/host/host_probe.hpp"
#include "common/process/process_runner.hpp"
#include "common/profile/profile_source.hpp"
#include "common/text/utf_convert.hpp"
#include "common/wsl/wsl_client.hpp"
#include "win/commands/doctor_bundle.hpp"
#include "win/platform/host_platform.hpp"
#include "win/platform/linux_side.hpp"

namespace tfwsl::cli {
namespace {

struct DoctorArgs {
  std::string profile = "tf-2.15-cuda-12.2";
  std::string distro;
  bool json = false;
  bool verbose = false;
  std::string bundle;
};

doctor::WslconfigFacts read_wslconfig() {
  doctor::WslconfigFacts facts;
  std::string path;
  if (auto configured = wsl::process_environment_variable("TFWSL_WSLCONFIG")) path = *configured;
  else if (auto profile = wsl::process_environment_variable("USERPROFILE")) path = *profile + "\\.wslconfig";
  else return facts;
  facts.path = path;
  std::error_code ec;
  std::filesystem::path p = path_from_utf8(path);
  if (!std::filesystem::exists(p, ec)) return facts;
  std::ifstream in(p, std::ios::binary);
  if (!in) {
    facts.read_error = "cannot open it";
    return facts;
  }
  std::ostringstream s;
  s << in.rdbuf();
  facts.present = true;
  facts.bytes = s.str();
  return facts;
}

doctor::LinuxSide bridge_linux_side(wsl::WslClient& wsl, const std::string& distro, const std::string& profile) {
  doctor::LinuxSide side;
  agent_client::SystemChildLauncher launcher;
  agent_client::BridgeOptions options;
  options.distro = distro;
  options.expected_version = TFWSL_VERSION;
  // The agent judges by the same profile when it has it built in; a profile file on the Windows
  // side leaves the agent's checks on its default (the host checks still follow the file).
  if (open_builtin_profile(profile)) options.profile = profile;
  if (auto path = wsl::process_environment_variable(agent_client::k_agent_path_env)) options.agent_path = *path;
  auto self = path_from_utf8(own_executable_path());
  auto shipped = self.parent_path() / "tfwsl-agent";
  std::error_code ec;
  if (std::filesystem::exists(shipped, ec)) options.shipped_agent = path_to_utf8(shipped);
  auto session = agent_client::connect_agent(wsl, launcher, options);
  if (!session) {
    side.error = session.error().describe();
    return side;
  }
  auto& s = **session;
  const std::string link = std::string(s.transport_name()) +
                           (s.localhost() == agent_client::LocalhostState::ok
                                ? " (127.0.0.1:" + std::to_string(s.handshake().port) + ")"
                                : " (stdio fallback)");
  side.description = "tfwsl-agent " + s.handshake().agent + " in " + distro + " over " + link +
                     (s.deployed() ? ", installed just now" : "");
  side.link = s.localhost() == agent_client::LocalhostState::ok            ? doctor::AgentLink::http
              : s.localhost() == agent_client::LocalhostState::not_answering ? doctor::AgentLink::stdio_fallback
                                                                              : doctor::AgentLink::stdio_impostor;
  side.localhost_problem = s.localhost_problem();
  const auto timeout = std::chrono::seconds(240);
  if (auto info = s.get(agent_api::route::k_info, std::chrono::seconds(30)); info && info->status == 200) side.info = info->body;
  auto checks = s.get(agent_api::route::k_checks, timeout);
  if (!checks || checks->status != 200) {
    side.link = doctor::AgentLink::none;
    side.error = checks ? "GET /v1/checks answered HTTP " + std::to_string(checks->status) : checks.error().describe();
    return side;
  }
  for (const auto& c : checks->body.value("checks", nlohmann::json::array())) {
    CheckResult r;
    std::string error;
    if (from_json(c, r, error)) side.checks.checks.push_back(r);
    else spdlog::warn("agent check not understood: {}", error);
  }
  if (auto gpu = s.get(agent_api::route::k_gpu, timeout); gpu && gpu->status == 200) {
    if (auto parsed = agent_api::parse_gpu(gpu->body)) side.gpu = *parsed;
  }
  return side;
}

int run_doctor_command(const DoctorArgs& args, Console& console) {
  auto policy = doctor::host_policy_for_profile(args.profile, builtin_compat_db());
  if (!policy) {
    console.err << "tfwsl doctor: " << policy.error().describe() << "\n";
    return exit_code::k_usage;
  }
  SystemProcessRunner runner;
  auto registry = make_system_registry();
  const host::SystemInfo system = read_system_info();
  wsl::WslClient wsl(runner, wsl::wsl_settings_from_environment());

  doctor::DoctorEnvironment env;
  env.is_windows = system.is_windows;
  env.distro = args.distro;
  env.host_policy = *policy;
  env.host_facts = [&] {
    host::HostProbeSettings settings;
    settings.nvidia_smi = host::nvidia_smi_candidates(wsl::process_environment_variable);
    return host::gather_host_facts(system, *registry, runner, settings);
  };
  env.wslconfig = read_wslconfig;
  if (system.is_windows) {
    env.wsl = &wsl;
    env.linux_side = [&wsl, &args](const std::string& distro) { return bridge_linux_side(wsl, distro, args.profile); };
  } else {
    env.linux_side = [&args](const std::string&) {
      auto side = in_process_linux_side(args.profile);
      return side ? *side : doctor::LinuxSide{};
    };
  }
  auto result = doctor::run_doctor(env);
  spdlog::info("doctor: {} wsl.exe starts, {} ms", result.wsl_starts, result.elapsed.count());

  if (args.json) {
    auto j = to_json(result.report);
    j["profile"] = args.profile;
    console.out << j.dump(2) << "\n";
  } else {
    RenderOptions options;
    options.verbose = args.verbose;
    options.color = console.out_is_terminal;
    console.out << render_text(result.report, options);
  }
  if (!args.bundle.empty()) {
    if (auto written = write_doctor_bundle(args.bundle, result); !written) {
      console.err << "tfwsl doctor: " << written.error().describe() << "\n";
      return exit_code::k_failure;
    }
    console.err << "bundle written to " << args.bundle << "\n";
  }
  return result.report.exit_code();
}

}  // namespace

void register_doctor_command(CLI::App& app, CommandTable& commands, Console& console) {
  auto args = std::make_shared<DoctorArgs>();
  auto* cmd = app.add_subcommand("doctor", "Check the host, WSL, the GPU driver and the distro's CUDA/TensorFlow stack");
  cmd->add_option("--profile", args->profile, "Profile that says what ok means")->capture_default_str();
  cmd->add_option("--distro", args->distro, "Distribution to check (default: WSL's default distribution)");
  cmd->add_flag("--json", args->json, "Print the report as one JSON object (docs/doctor.md)");
  cmd->add_flag("-v,--verbose", args->verbose, "Show the facts behind each line");
  cmd->add_option("--bundle", args->bundle, "Also write a .tar with both sides' facts and summary.json (redacted)");
  commands.add(cmd, [args, &console] { return run_doctor_command(*args, console); });
}

}  // namespace tfwsl::cli
