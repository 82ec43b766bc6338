// tfwsl doctor: gathers the host facts, asks wsl.exe, starts the agent through the bridge (in the
// distro through wsl.exe on Windows, as a child on the native Linux build), and prints one report.
#include "win/commands/doctor_command.hpp"

#include <memory>

#include <spdlog/spdlog.h>

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
#include "win/commands/doctor_fleet_output.hpp"
#include "win/commands/machine_access.hpp"
#include "win/commands/profile_choice.hpp"

namespace tfwsl::cli {
namespace {

struct DoctorArgs {
  std::string profile;  // --profile; empty: choose_profile decides (docs/profiles.md)
  std::string distro;
  bool json = false;
  bool summary_line = false;  // --summary-line: one line for an Intune detection script (docs/fleet.md)
  bool compliance = false;    // --compliance: the flat facts of an Intune custom-compliance rules file
  bool verbose = false;
  bool quiet = false;
  std::string bundle;
  std::string agent;  // --agent: the tfwsl-agent binary (agent_locator.hpp)
};

int run_doctor_command(const DoctorArgs& given, Console& console) {
  DoctorArgs args = given;
  args.profile = choose_profile(profile_search(given.profile)).name_or_path;
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
  const bool machine_output = args.json || args.summary_line || args.compliance;
  if (!machine_output && !args.quiet) {
    env.progress = [&status](const std::string& step) { status.set_step(step); };
    status.start();
  }
  auto result = doctor::run_doctor(env);
  status.stop();
  spdlog::info("doctor: {} wsl.exe starts, {} ms", result.wsl_starts, result.elapsed.count());

  if (machine_output) {
    auto j = with_json_envelope(to_json(result.report), json_schema::k_doctor, json_schema::k_version);
    j["profile"] = args.profile;
    if (args.summary_line) console.out << doctor_summary_line(j) << "\n";
    else if (args.compliance) console.out << doctor_compliance_facts(j).dump() << "\n";
    else console.out << j.dump(2) << "\n";
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
  auto* json_flag = cmd->add_flag("--json", args->json, "Print the report as one JSON object (docs/doctor.md)");
  auto* summary_flag = cmd->add_flag("--summary-line", args->summary_line,
                                     "Print one line (at most 2,048 bytes) for an Intune detection script (docs/fleet.md)")
                           ->excludes(json_flag);
  cmd->add_flag("--compliance", args->compliance,
                "Print the flat facts an Intune custom-compliance rules file tests, as one JSON object (docs/fleet.md)")
      ->excludes(json_flag)
      ->excludes(summary_flag);
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
