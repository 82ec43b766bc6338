// tfwsl doctor: gathers the host facts, asks wsl.exe, starts the agent through the bridge (in the
// distro through wsl.exe on Windows, as a child on the native Linux build), and prints one report.
#include "win/commands/doctor_command.hpp"

#include <spdlog/spdlog.h>

#include <iostream>
#include <memory>

#include "common/build_info/build_info.hpp"
#include "common/cli/json_envelope.hpp"
#include "common/cli/status_line.hpp"
#include "common/compat/compat_db.hpp"
#include "common/core/clock.hpp"
#include "common/core/exit_codes.hpp"
#include "common/judge/check_policy.hpp"
#include "common/profile/profile_loader.hpp"
#include "common/profile/profile_locate.hpp"
#include "common/profile/profile_source.hpp"
#include "common/provision/provision_state_paths.hpp"
#include "win/agent_service/agent_service.hpp"
#include "win/doctor/doctor.hpp"
#include "win/doctor/host_policy.hpp"
#include "win/render/doctor_fleet_output.hpp"
#include "win/render/doctor_header.hpp"
#include "win/render/json_schema_names.hpp"
#include "win/tasks/doctor_bundle.hpp"
#include "win/tasks/doctor_container_route.hpp"
#include "win/tasks/doctor_fix.hpp"
#include "win/tasks/machine_access.hpp"
#include "win/tasks/profile_choice.hpp"

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
  std::string agent;              // --agent: the tfwsl-agent binary (agent_locator.hpp)
  std::vector<std::string> data;  // --data: projects and datasets to judge data.location by
  bool fix = false;               // --fix: run the tfwsl commands of the root causes (doctor_fix.hpp)
  bool yes = false;               // with --fix: do not ask
  bool dry_run = false;           // with --fix: show the commands and stop
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

// Where tfwsl's logs are, for -v: the places a failure's details end up (docs/doctor.md, "Logs").
std::string log_locations(bool is_windows) {
  return std::string("\nLogs") + (is_windows ? " (the first four in the distro)" : "") + ":\n  " +
         agent_service::k_agent_log_path + ": the persistent agent (tfwsl agent start)\n  " +
         agent_service::k_agent_err_path +
         ": its stderr (why it did not start)\n"
         "  ~/.cache/tfwsl/pip-*.log: pip's output (tfwsl migrate, tfwsl-agent venv)\n"
         "  " +
         provision::k_default_step_logs_dir +
         ": each step of tfwsl provision\n"
         "  --log-file FILE: tfwsl's own log (add --log-level debug for more)\n";
}

// --json, --summary-line, --compliance: for scripts and fleet engines, without a status line.
bool machine_output(const DoctorArgs& args) { return args.json || args.summary_line || args.compliance; }

struct DoctorRun {
  doctor::DoctorEnvironment env;
  ProfileChoice profile;
};

doctor::DoctorResult run_with_status(const DoctorArgs& args, const doctor::DoctorEnvironment& env, Console& console,
                                     const Clock& clock) {
  StatusLine status(console.err, "tfwsl doctor", clock, status_line_settings(console));
  doctor::DoctorEnvironment watched = env;
  if (!machine_output(args) && !args.quiet) {
    watched.progress = [&status](const std::string& step) { status.set_step(step); };
    status.start();
  }
  auto result = doctor::run_doctor(watched);
  status.stop();
  spdlog::info("doctor: {} wsl.exe starts, {} ms", result.wsl_starts, result.elapsed.count());
  return result;
}

void print_report(const DoctorArgs& args, const DoctorRun& run, const doctor::DoctorResult& result, Console& console) {
  if (machine_output(args)) {
    auto j = with_json_envelope(to_json(result.report), json_schema::k_doctor, json_schema::k_version);
    j["profile"] = args.profile;
    const nlohmann::json& facts = result.facts;
    const bool has_agent = facts.is_object() && facts.contains("agent") && facts["agent"].is_object();
    j["build"] = build_json(has_agent ? facts["agent"].value("info", nlohmann::json()) : nlohmann::json());
    if (args.summary_line)
      console.out << doctor_summary_line(j) << "\n";
    else if (args.compliance)
      console.out << doctor_compliance_facts(j).dump() << "\n";
    else
      console.out << j.dump(2) << "\n";
    return;
  }
  RenderOptions options;
  options.verbose = args.verbose;
  options.color = console.color;
  options.width = console.columns;
  options.unicode_marks = console.unicode_marks;
  options.header = doctor_header(run.profile, result.machine, run.env.is_windows);
  console.out << render_text(result.report, options);
  if (args.verbose) console.out << log_locations(run.env.is_windows);
}

// --fix: the tfwsl commands of the root causes, with consent; then the doctor again, and what changed.
int fix_and_check_again(const DoctorArgs& args, const DoctorRun& run, const doctor::DoctorResult& before,
                        Console& console, const Clock& clock, const RunTfwsl& run_tfwsl) {
  const std::string profile = run.profile.origin == ProfileOrigin::builtin ? std::string() : run.profile.name_or_path;
  const FixPlan plan =
      plan_fixes(before.report, [&](const auto& command) { return options_passed_on(command, profile, args.distro); });
  if (plan.commands.empty() && !plan.stopped_at) return before.report.exit_code();
  const FixOutcome applied = apply_fixes(plan, {args.yes, args.dry_run}, console, std::cin, run_tfwsl);
  if (applied.commands_run == 0)
    return plan.commands.empty() || args.dry_run ? before.report.exit_code() : applied.exit_code;
  console.out << "\n$ tfwsl doctor   (again, after the fixes)\n";
  const doctor::DoctorResult after = run_with_status(args, run.env, console, clock);
  const auto changes = report_changes(before.report, after.report, console.unicode_marks);
  console.out << (changes.empty() ? "Nothing changed.\n" : "What changed:\n");
  for (const auto& line : changes) console.out << "  " << line << "\n";
  console.out << "\n";
  print_report(args, run, after, console);
  return applied.exit_code != exit_code::k_ok ? applied.exit_code : after.report.exit_code();
}

int run_doctor_command(const DoctorArgs& given, Console& console, Machine& machine, const RunTfwsl& run_tfwsl) {
  DoctorArgs args = given;
  DoctorRun run;
  run.profile = choose_profile(profile_search(given.profile));
  // The header names the profile and its file; a tfwsl.yaml that discovery ignored is named here
  // (docs/profiles.md, "Which profile").
  for (const auto& ignored : run.profile.ignored) console.err << "tfwsl doctor: ignored " << ignored << "\n";
  args.profile = run.profile.name_or_path;
  // Loaded once: both sides' policies come from the same profile (docs/architecture.md).
  ProfileLoadOptions load_options;
  load_options.compat = &builtin_compat_db();
  auto profile = load_valid_profile(args.profile, load_options);
  if (!profile) {
    console.err << "tfwsl doctor: " << profile.error().describe() << "\n";
    return exit_code::k_usage;
  }
  auto policy = doctor::host_policy_for(*profile, args.profile, builtin_compat_db());
  if (!policy) {
    console.err << "tfwsl doctor: " << policy.error().describe() << "\n";
    return exit_code::k_usage;
  }
  auto linux_policy = judge::check_policy_for(*profile, args.profile);
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
  MachineAccess access(args.agent, machine);
  run.env = access.environment(args.distro);
  run.env.host_policy = *policy;
  run.env.linux_policy = *linux_policy;
  run.env.data_paths = args.data;
  if (profile->route.value_or(ProfileRoute::wsl) == ProfileRoute::container)
    run.env.route_checks = [&] { return container_route_checks(*profile, args.profile, args.agent, machine); };
  // run_doctor joins every source before it returns, so they may use `access`.
  const doctor::DoctorResult result = run_with_status(args, run.env, console, machine.clock);
  print_report(args, run, result, console);
  if (!args.bundle.empty()) {
    if (auto written = write_doctor_bundle(args.bundle, result); !written) {
      console.err << "tfwsl doctor: " << written.error().describe() << "\n";
      return exit_code::k_failure;
    }
    if (!args.quiet) console.err << "bundle written to " << args.bundle << "\n";
  }
  if (args.fix) return fix_and_check_again(args, run, result, console, machine.clock, run_tfwsl);
  return result.report.exit_code();
}

}  // namespace

void register_doctor_command(CLI::App& app, CommandTable& commands, Console& console, Machine& machine,
                             const RunTfwsl& run_tfwsl) {
  auto args = std::make_shared<DoctorArgs>();
  auto* cmd =
      app.add_subcommand("doctor", "Check the host, WSL, the GPU driver and the distro's CUDA/TensorFlow stack");
  cmd->add_option("--profile", args->profile,
                  "Profile that says what ok means (default: tfwsl.yaml in this folder or above, your default profile, "
                  "else " +
                      default_profile_name() + ")");
  cmd->add_option("--distro", args->distro, "Distribution to check (default: WSL's default distribution)");
  auto* json_flag = cmd->add_flag("--json", args->json, "Print the report as one JSON object (docs/doctor.md)");
  auto* summary_flag =
      cmd->add_flag("--summary-line", args->summary_line,
                    "Print one line (at most 2,048 bytes) for an Intune detection script (docs/fleet.md)")
          ->excludes(json_flag);
  auto* compliance_flag =
      cmd->add_flag(
             "--compliance", args->compliance,
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
  cmd->add_option("--data", args->data,
                  "A project or dataset folder to check for a slow Windows drive (repeatable; C:\\data or a "
                  "path in the distro)");
  auto* fix = cmd->add_flag("--fix", args->fix,
                            "Then run the tfwsl commands that fix the root causes (shown first, asked for), and check "
                            "again");
  cmd->add_flag("-y,--yes", args->yes, "With --fix: run them without asking (needed when stdin is not a terminal)")
      ->needs(fix);
  cmd->add_flag("--dry-run", args->dry_run, "With --fix: show the commands and run nothing")->needs(fix);
  fix->excludes(json_flag)->excludes(summary_flag)->excludes(compliance_flag);
  cmd->footer(help_footer("", {"tfwsl doctor", "tfwsl doctor --fix      (runs tfwsl provision, ... after asking)",
                               "tfwsl doctor -v --distro Ubuntu-22.04 --profile tf-2.17-cuda-12.3",
                               "tfwsl doctor --json --bundle tfwsl-doctor.tar   (to attach to a bug report)"}));
  commands.add(
      cmd, [args, &console, &machine, run_tfwsl] { return run_doctor_command(*args, console, machine, run_tfwsl); });
}

}  // namespace tfwsl::cli
