// tfwsl doctor: gathers the host facts, asks wsl.exe, starts the agent through the bridge (in the
// distro through wsl.exe on Windows, as a child on the native Linux build), and prints one report.
#include "win/commands/doctor_command.hpp"

#include <memory>

#include <spdlog/spdlog.h>

#include "common/build_info/build_info.hpp"
#include "common/cli/json_envelope.hpp"
#include "common/cli/status_line.hpp"
#include "common/compat/compat_db.hpp"
#include "common/core/clock.hpp"
#include "common/core/exit_codes.hpp"
#include "common/doctor/doctor.hpp"
#include "common/doctor/host_policy.hpp"
#include "common/judge/check_policy.hpp"
#include "common/profile/profile_locate.hpp"
#include "common/profile/profile_source.hpp"
#include "win/commands/doctor_bundle.hpp"
#include "win/commands/machine_access.hpp"
#include "win/commands/profile_choice.hpp"

namespace tfwsl::cli {
namespace {

struct DoctorArgs {
  std::string profile;  // --profile; empty: choose_profile decides (docs/profiles.md)
  std::string distro;
  bool json = false;
  bool verbose = false;
  bool quiet = false;
  std::string bundle;
  std::string agent;  // --agent: the tfwsl-agent binary (agent_locator.hpp)
};

// What tfwsl and the agent it reached were built from (docs/schema/doctor.schema.json, "build"):
// `agent_info` is the agent's /v1/info (null when none was reached; no commit before 0.2.0).
nlohmann::json build_json(const nlohmann::json& agent_info) {
  nlohmann::json agent = nullptr;
  if (agent_info.is_object() && agent_info.contains("agent"))
    agent = {{"version", agent_info["agent"]}, {"commit", agent_info.value("commit", std::string())}};
  return {{"tfwsl", {{"version", std::string(build_info::version())}, {"commit", build_info::commit()}}},
          {"agent", agent}};
}

int run_doctor_command(const DoctorArgs& given, Console& console) {
  DoctorArgs args = given;
  args.profile = announced_profile_choice(given.profile, "tfwsl doctor", console.err).name_or_path;
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
  MachineAccess machine(args.agent);
  doctor::DoctorEnvironment env = machine.environment(args.distro);
  env.host_policy = *policy;
  env.linux_policy = *linux_policy;
  // run_doctor joins every source before it returns, so they may use `machine`.
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
    const nlohmann::json& facts = result.facts;
    const bool has_agent = facts.is_object() && facts.contains("agent") && facts["agent"].is_object();
    j["build"] = build_json(has_agent ? facts["agent"].value("info", nlohmann::json()) : nlohmann::json());
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
  cmd->add_option("--profile", args->profile,
                  "Profile that says what ok means (default: tfwsl.yaml in this folder or above, your default profile, "
                  "else " + default_profile_name() + ")");
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
