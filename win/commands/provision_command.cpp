#include "win/commands/provision_command.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "common/cli/fitted_output.hpp"
#include "common/cli/json_envelope.hpp"
#include "common/cli/status_line.hpp"
#include "common/compat/compat_db.hpp"
#include "common/core/clock.hpp"
#include "common/core/exit_codes.hpp"
#include "common/profile/profile_loader.hpp"
#include "common/profile/profile_source.hpp"
#include "common/provision/progress_event.hpp"
#include "common/provision/provision_plan.hpp"
#include "common/util/shell_quote.hpp"
#include "common/util/text_lines.hpp"
#include "common/util/text_wrap.hpp"
#include "common/util/visible_text.hpp"
#include "win/tasks/agent_upgrade.hpp"
#include "win/tasks/profile_choice.hpp"
#include "win/tasks/provision_cloud_init.hpp"
#include "win/tasks/provision_run.hpp"
#include "win/wsl/wsl_client.hpp"

namespace tfwsl::cli {
namespace {

struct ProvisionArgs {
  std::string profile;  // --profile; empty: choose_profile decides (docs/profiles.md)
  bool dry_run = false;
  bool check = false;
  bool json = false;
  bool yes = false;
  bool cloud_init = false;
  std::string keyring_url;     // --cloud-init only: a mirror of NVIDIA's cuda-keyring
  std::string pip_find_links;  // --cloud-init only: a wheel folder in the distro
  std::string user;
  std::string agent;
};

int fail(Console& console, const std::string& message) {
  console.err << "tfwsl provision: " << message << "\n";
  return exit_code::k_failure;
}

bool consented(const ProvisionArgs& args, Console& console) {
  if (args.yes || args.check) return true;
  if (!console.in_is_terminal) return false;
  console.err << "Apply these steps (each is checked first and applied only when needed)? [y/N] " << std::flush;
  std::string answer;
  std::getline(std::cin, answer);
  return answer == "y" || answer == "Y" || answer == "yes";
}

// Windows: the plan as the agent in the distro builds it (its user and home resolved), printed as
// it prints it: the plan shown is the one the distro half will run.
Status agent_dry_run(const ProvisionArgs& args, const std::string& distro, Console& console, Machine& machine) {
  wsl::WslClient& wsl = machine.wsl;
  const ProvisionRunRequest request{args.profile, false, args.user, args.agent};
  std::vector<std::string> agent_args = agent_provision_args(request, true);
  TFWSL_TRY(profile_yaml, sent_profile(request));
  agent_args.erase(std::remove(agent_args.begin(), agent_args.end(), "--json"), agent_args.end());
  agent_args.insert(agent_args.begin() + 1, "--dry-run");
  if (args.json) agent_args.push_back("--json");
  agent_args.insert(agent_args.begin(), distro_agent_path());
  TFWSL_TRY(reply, wsl.exec({distro, "", ""}, agent_args, profile_yaml));
  if (reply.exit_code != 0 || reply.text.empty())
    return make_error(ErrorCode::process, fmt::format("tfwsl-agent provision --dry-run exited {}", reply.exit_code),
                      reply.err_text);
  // The agent's own render_plan, line by line, each shown visibly: another process's output.
  for (std::string_view line : lines_of(reply.text)) console.out << visible_text(line) << "\n";
  return {};
}

std::string render(const nlohmann::json& recap) {
  std::string out;
  if (recap.contains("interrupted_step") && recap["interrupted_step"].is_string())
    out += fmt::format("The previous run was interrupted during {}; resuming.\n",
                       visible_text(recap["interrupted_step"].get<std::string>()));
  for (const auto* list : {&recap["host_steps"], &recap["steps"]})
    for (const auto& s : *list) {
      // The agent's words (a step's message quotes apt's, pip's or a file's text): shown visibly.
      out += fmt::format("{:<8} {:<20} {}\n", visible_text(s.value("result", "")), visible_text(s.value("id", "")),
                         visible_text(s.value("message", "")));
      if (s.contains("log") && s.value("result", "") == "failed")
        out += fmt::format("         log: {}\n", visible_text(s.value("log", "")));
    }
  const agent_api::RecapCounts c = recap_counts(recap);
  if (recap.contains("error"))
    out += fmt::format("failed   distro steps         {}\n", visible_text(recap["error"].get<std::string>()));
  out += fmt::format("recap: ok={} changed={} failed={} skipped={}\n", c.ok, c.changed, c.failed, c.skipped);
  return out;
}

// Windows: the distro half runs the installed agent, so one older than this tfwsl is upgraded first
// (agent_upgrade.hpp); with `changes` false (--dry-run, --check) it only says it would, and not at all
// with --json, whose stdout is its object. A read-only run goes on without it when it fails.
Status upgrade_installed_agent(const ProvisionArgs& args, const std::string& distro, bool changes, Console& console,
                               Machine& machine) {
  if (!changes && args.json) return {};
  auto upgraded =
      upgrade_distro_agent(distro, args.agent, {"", "", "tfwsl provision", args.yes, !changes}, console, machine);
  if (!upgraded && !changes) console.err << "tfwsl provision: " << upgraded.error().describe() << "\n";
  return upgraded;
}

// The run with the agent's progress (each step, apt's and pip's downloads) in a status line on
// stderr; --json keeps stderr quiet.
nlohmann::json run_with_status_line(ProvisionRunRequest request, const provision::ProvisionPlan& plan, bool json,
                                    Console& console, Machine& machine) {
  if (json) return run_provision_steps(request, plan, machine);
  StatusLine status(console.err, "tfwsl provision", machine.clock, status_line_settings(console));
  request.progress = [&status](const provision::ProgressEvent& e) { status.update_step(provision::progress_words(e)); };
  status.start();
  nlohmann::json recap = run_provision_steps(request, plan, machine);
  status.stop();
  return recap;
}

// --cloud-init: the user data of the distro's half, printed; nothing runs and nothing changes.
int print_cloud_init(const Profile& profile, const ProvisionArgs& args, Console& console) {
  provision::PlanSettings settings = cloud_init_plan_settings(args.user);
  settings.keyring_url = args.keyring_url;
  settings.pip_find_links = args.pip_find_links;
  auto plan = provision::build_provision_plan(profile, builtin_compat_db(), settings);
  if (!plan) return fail(console, plan.error().describe());
  auto user_data = cloud_init_user_data(*plan);
  if (!user_data) return fail(console, user_data.error().describe());
  console.out << *user_data;
  return exit_code::k_ok;
}

// The command that shows the whole plan, as printed for the shell of this host.
PrintedCommand dry_run_command(const ProvisionArgs& given, bool windows) {
  std::vector<std::string> argv{"tfwsl", "provision", "--dry-run"};
  if (!given.profile.empty()) argv.insert(argv.end(), {"--profile", given.profile});
  const Shell shell = windows ? Shell::powershell : Shell::bash;
  return {shell, shell_command(shell, argv)};
}

int run_provision_command(const ProvisionArgs& given, Console& console, Machine& machine) {
  ProvisionArgs args = given;
  args.profile = announced_profile_choice(given.profile, "tfwsl provision", console.err).name_or_path;
  auto profile = load_valid_profile(args.profile);
  if (!profile) return fail(console, profile.error().describe());
  if (args.cloud_init) return print_cloud_init(*profile, args, console);
  const bool windows = machine.host.system().is_windows;
  provision::PlanSettings settings;
  settings.inside_wsl = windows;
  settings.user = args.user;
  auto plan = provision::build_provision_plan(*profile, builtin_compat_db(), settings);
  if (!plan) return fail(console, plan.error().describe());
  if (args.dry_run && windows) {
    (void)upgrade_installed_agent(args, plan->distro, false, console, machine);
    if (auto shown = agent_dry_run(args, plan->distro, console, machine))
      return exit_code::k_ok;
    else
      console.err << "tfwsl provision: the agent could not show its plan (" << shown.error().describe()
                  << "); this is tfwsl's own\n";
  }
  const std::string mode = args.dry_run ? "dry-run" : args.check ? "check" : "apply";
  nlohmann::json out = {{"mode", mode}, {"plan", provision::plan_to_json(*plan)}};
  // The whole plan where it is read before a decision (a dry run, the question on a terminal);
  // after a --yes, one line, then the run's progress.
  if (!args.json && !args.check) {
    if (args.dry_run || !args.yes) {
      print_text(console, provision::render_plan(*plan), provision::printed_commands(*plan));
    } else {
      const PrintedCommand dry_run = dry_run_command(given, windows);
      print_text(console,
                 provision::render_plan_summary(*plan, fmt::format("({}) {}", to_string(dry_run.shell), dry_run.text)),
                 {dry_run});
    }
  }
  if (args.dry_run) {
    if (args.json)
      console.out << with_json_envelope(out, json_schema::k_provision, json_schema::k_version).dump(2) << "\n";
    return exit_code::k_ok;
  }
  if (!consented(args, console))
    return fail(console, "this changes the machine: pass --yes to apply, or --dry-run / --check");
  if (windows) {
    auto upgraded = upgrade_installed_agent(args, plan->distro, !args.check, console, machine);
    if (!upgraded && !args.check) return fail(console, upgraded.error().describe());
  }
  const nlohmann::json recap =
      run_with_status_line({args.profile, args.check, args.user, args.agent, {}}, *plan, args.json, console, machine);
  if (args.json) {
    out["recap"] = recap;
    console.out << with_json_envelope(out, json_schema::k_provision, json_schema::k_version).dump(2) << "\n";
  } else {
    print_text(console, render(recap));
  }
  return provision_exit_code(recap, args.check);
}

// --cloud-init and the options only it takes; returns the flag.
CLI::Option* add_cloud_init_options(CLI::App& cmd, ProvisionArgs& args) {
  auto* cloud_init =
      cmd.add_flag("--cloud-init", args.cloud_init,
                   "Print cloud-init user data that sets up the distro for the profile at its first boot "
                   "(needs --user); change nothing (docs/fleet.md)");
  // As tfwsl-agent provision takes them: a fleet's own mirror of the keyring, or wheels in the distro.
  cmd.add_option("--keyring-url", args.keyring_url,
                 "With --cloud-init: where cuda-keyring is fetched from (default: NVIDIA's repository for the distro)")
      ->needs(cloud_init);
  cmd.add_option("--pip-find-links", args.pip_find_links,
                 "With --cloud-init: install the pip packages only from this folder of the distro (pip --no-index "
                 "--find-links)")
      ->needs(cloud_init);
  return cloud_init;
}

}  // namespace

void register_provision_command(CLI::App& app, CommandTable& commands, Console& console, Machine& machine) {
  auto args = std::make_shared<ProvisionArgs>();
  auto* cmd =
      app.add_subcommand("provision", "Set up WSL and the distro for a profile: CUDA toolkit, venv, TensorFlow");
  cmd->add_option("--profile", args->profile,
                  "Profile to provision (built-in name or YAML file; default: tfwsl.yaml here or above, "
                  "the user's profile, else the built-in default)");
  auto* dry = cmd->add_flag("--dry-run", args->dry_run,
                            "Print the plan (every step, its packages and commands) and change nothing");
  auto* check = cmd->add_flag("--check", args->check, "Check every step and report what would change; change nothing")
                    ->excludes(dry);
  auto* cloud_init = add_cloud_init_options(*cmd, *args);
  cloud_init->excludes(dry)->excludes(check);
  cmd->add_flag("--json", args->json,
                "Print the plan and the recap as one JSON object (docs/schema/provision.schema.json)")
      ->excludes(cloud_init);
  cmd->add_flag("-y,--yes", args->yes, "Apply without asking");
  cmd->add_option("--user", args->user, "The distro user who owns the venv (default: the distro's default user)");
  cmd->add_option("--agent", args->agent,
                  "The tfwsl-agent binary on native Linux (default: TFWSL_AGENT, then beside tfwsl)");
  cmd->footer(help_footer(
      "Exit status: 0 done (or nothing to do), 1 --check found steps to change, 2 a step failed.",
      {"tfwsl provision --dry-run", "tfwsl provision --check --profile tf-2.17-cuda-12.3",
       "tfwsl provision --yes --json", "tfwsl provision --profile tf-2.15-cuda-12.2 --cloud-init --user ada"}));
  commands.add(cmd, [args, &console, &machine] {
    const FittedOutput fitted(console, false);  // messages at the terminal's width; stdout may be cloud-init
    return run_provision_command(*args, console, machine);
  });
}

}  // namespace tfwsl::cli
