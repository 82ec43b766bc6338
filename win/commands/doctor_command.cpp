// tfwsl doctor: gathers the host facts, asks wsl.exe, starts the agent through the bridge (in the
// distro through wsl.exe on Windows, as a child on the native Linux build), and prints one report.
#include "win/commands/doctor_command.hpp"

#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>

#include <spdlog/spdlog.h>

#include "common/agent_client/agent_locator.hpp"
#include "common/agent_client/local_agent_host.hpp"
#include "common/agent_client/wsl_agent_host.hpp"
#include "common/cli/json_envelope.hpp"
#include "common/cli/status_line.hpp"
#include "common/compat/compat_db.hpp"
#include "common/core/clock.hpp"
#include "common/core/exit_codes.hpp"
#include "common/doctor/agent_side.hpp"
#include "common/doctor/doctor.hpp"
#include "common/doctor/host_policy.hpp"
#include "common/host/host_probe.hpp"
#include "common/judge/check_policy.hpp"
#include "common/process/process_runner.hpp"
#include "common/profile/profile_source.hpp"
#include "common/text/utf_convert.hpp"
#include "common/wsl/wsl_client.hpp"
#include "common/wslconfig/wslconfig_location.hpp"
#include "win/commands/doctor_bundle.hpp"
#include "win/platform/host_platform.hpp"
#include "win/platform/own_executable.hpp"

namespace tfwsl::cli {
namespace {

struct DoctorArgs {
  std::string profile = default_profile_name();
  std::string distro;
  bool json = false;
  bool verbose = false;
  bool quiet = false;
  std::string bundle;
  std::string agent;  // --agent: the tfwsl-agent binary (agent_locator.hpp)
};

doctor::WslconfigFacts read_wslconfig() {
  doctor::WslconfigFacts facts;
  auto located = wslconfig::windows_wslconfig_path(wsl::process_environment_variable);
  if (!located) return facts;
  const std::string path = *located;
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

Result<std::filesystem::path> locate_agent(const DoctorArgs& args) {
  agent_client::AgentSearch search;
  search.option = args.agent;
  search.env = wsl::process_environment_variable(agent_client::k_agent_binary_env);
  search.executable = path_from_utf8(own_executable_path());
  return agent_client::find_agent_binary(search, [](const std::filesystem::path& p) {
    std::error_code ec;
    return std::filesystem::is_regular_file(p, ec);
  });
}

// The agent is not told the profile: it reports facts, and run_doctor judges them with the policy
// of --profile (built-in or a file on this side), the same as the host checks.
agent_client::BridgeOptions bridge_options() {
  agent_client::BridgeOptions options;
  options.expected_version = TFWSL_VERSION;
  return options;
}

// Windows: the agent in `distro` through wsl.exe; the one found by locate_agent runs (in place, installing
// nothing) when the distro has no usable agent of its own.
doctor::LinuxSide wsl_linux_side(wsl::WslClient& wsl, const std::string& distro, const DoctorArgs& args) {
  agent_client::SystemChildLauncher launcher;
  agent_client::HttpLoopbackConnector loopback;
  agent_client::WslAgentSettings settings;
  settings.distro = distro;
  if (auto path = wsl::process_environment_variable(agent_client::k_agent_path_env)) settings.agent_path = *path;
  if (auto shipped = locate_agent(args)) settings.shipped_agent = path_to_utf8(*shipped);
  else spdlog::info("{}", shipped.error().describe());
  agent_client::WslAgentHost host(wsl, launcher, settings);
  return doctor::linux_side_from_agent(host, loopback, bridge_options());
}

// Native Linux: the agent found by locate_agent, started as a child over the same bridge.
doctor::LinuxSide local_linux_side(const DoctorArgs& args) {
  auto agent = locate_agent(args);
  if (!agent) {
    doctor::LinuxSide side;
    side.error = agent.error().describe();
    return side;
  }
  agent_client::SystemChildLauncher launcher;
  agent_client::HttpLoopbackConnector loopback;
  agent_client::LocalAgentHost host(launcher, path_to_utf8(*agent));
  return doctor::linux_side_from_agent(host, loopback, bridge_options());
}

int run_doctor_command(const DoctorArgs& args, Console& console) {
  auto policy = doctor::host_policy_for_profile(args.profile, builtin_compat_db());
  if (!policy) {
    console.err << "tfwsl doctor: " << policy.error().describe() << "\n";
    return exit_code::k_usage;
  }
  auto linux_policy = judge::check_policy_for_profile(args.profile);
  if (!linux_policy) {
    console.err << "tfwsl doctor: " << linux_policy.error().describe() << "\n";
    return exit_code::k_usage;
  }
  if (!args.bundle.empty()) {
    if (auto writable = check_bundle_destination(args.bundle); !writable) {
      console.err << "tfwsl doctor: " << writable.error().describe() << "\n";
      return exit_code::k_usage;
    }
  }
  SystemProcessRunner runner;
  auto registry = make_system_registry();
  const host::SystemInfo system = read_system_info();
  wsl::WslClient wsl(runner, wsl::wsl_settings_from_environment());

  doctor::DoctorEnvironment env;
  env.is_windows = system.is_windows;
  env.distro = args.distro;
  env.host_policy = *policy;
  env.linux_policy = *linux_policy;
  env.host_facts = [&] {
    host::HostProbeSettings settings;
    settings.nvidia_smi = host::nvidia_smi_candidates(wsl::process_environment_variable);
    return host::gather_host_facts(system, *registry, runner, settings);
  };
  env.wslconfig = read_wslconfig;
  // run_doctor joins every source before it returns, so these may use the locals above.
  if (system.is_windows) {
    env.wsl = &wsl;
    env.linux_side = [&wsl, &args](const std::string& distro) { return wsl_linux_side(wsl, distro, args); };
  } else {
    env.linux_side = [&args](const std::string&) { return local_linux_side(args); };
  }
  SteadyClock clock;
  StatusLine status(console.err, "tfwsl doctor", clock, StatusLineSettings{console.live_status});
  if (!args.json && !args.quiet) {
    env.progress = [&status](const std::string& step) { status.set_step(step); };
    status.start();
  }
  auto result = doctor::run_doctor(env);
  status.stop();
  spdlog::info("doctor: {} wsl.exe starts, {} ms", result.wsl_starts, result.elapsed.count());

  if (args.json) {
    auto j = with_json_envelope(to_json(result.report), json_schema::k_doctor, json_schema::k_version);
    j["profile"] = args.profile;
    console.out << j.dump(2) << "\n";
  } else {
    RenderOptions options;
    options.verbose = args.verbose;
    options.color = console.color;
    console.out << render_text(result.report, options);
  }
  if (!args.bundle.empty()) {
    if (auto written = write_doctor_bundle(args.bundle, result); !written) {
      console.err << "tfwsl doctor: " << written.error().describe() << "\n";
      return exit_code::k_failure;
    }
    if (!args.quiet) console.err << "bundle written to " << args.bundle << "\n";
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
  cmd->add_flag("-q,--quiet", args->quiet, "No status line on stderr while it waits");
  cmd->add_option("--bundle", args->bundle,
                  "Also write a .tar with both sides' facts and summary.json (redacted); checked writable first");
  cmd->add_option("--agent", args->agent,
                  "The tfwsl-agent binary (default: TFWSL_AGENT, then beside tfwsl, then ../linux/ in a build tree); "
                  "on Windows the one run in the distro (never installed) when it has no agent of this version");
  cmd->footer(help_footer("", {"tfwsl doctor",
                               "tfwsl doctor -v --distro Ubuntu-22.04 --profile tf-2.17-cuda-12.3",
                               "tfwsl doctor --json --bundle tfwsl-doctor.tar   (to attach to a bug report)"}));
  commands.add(cmd, [args, &console] { return run_doctor_command(*args, console); });
}

}  // namespace tfwsl::cli
