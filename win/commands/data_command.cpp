// tfwsl data push: thin; the plan, the room checks, the job and its report are win/push.
#include "win/commands/data_command.hpp"

#include <filesystem>
#include <iostream>
#include <memory>

#include "common/cli/fitted_output.hpp"
#include "common/cli/status_line.hpp"
#include "common/core/clock.hpp"
#include "common/core/exit_codes.hpp"
#include "common/text/utf_convert.hpp"
#include "win/push/interrupt_catcher.hpp"
#include "win/push/progress_text.hpp"
#include "win/push/push_report.hpp"
#include "win/push/session_push_agent.hpp"
#include "win/tasks/agent_consent.hpp"
#include "win/tasks/push_setup.hpp"

namespace tfwsl::cli {
namespace {

struct PushArgs {
  push::PushRequest request;
  bool dry_run = false;
  bool yes = false;
  bool json = false;
  std::string agent;
};

int report_refusal(const push::PushOutcome& outcome, const PushArgs& args, Console& console) {
  if (args.json) console.out << push::push_to_json(outcome, args.request).dump(2) << "\n";
  if (outcome.error) console.err << "tfwsl data push: " << outcome.error->describe() << "\n";
  if (!outcome.note.empty()) console.err << "tfwsl data push: " << outcome.note << "\n";
  return outcome.exit_code();
}

int run_data_push(PushArgs& args, Console& console, Machine& machine) {
  const host::SystemInfo& system = machine.host.system();
  args.request.windows = system.is_windows;
  if (!system.is_windows) {  // natively SRC is a path of this machine: a relative one from here
    std::error_code ec;
    auto absolute = std::filesystem::absolute(path_from_utf8(args.request.source), ec);
    if (!ec) args.request.source = path_to_utf8(absolute.lexically_normal());
  }
  PushSetup setup({args.request.distro, args.agent, system.is_windows}, machine);
  push::PushEnvironment& env = setup.env();
  push::PushOutcome outcome;
  if (auto planned = push::plan_push(env, args.request, outcome.plan); !planned) {
    outcome.end = push::PushEnd::refused;
    outcome.error = planned.error();
    return report_refusal(outcome, args, console);
  }
  if (args.dry_run) {
    outcome.end = push::PushEnd::planned;
    if (args.json)
      console.out << push::push_to_json(outcome, args.request).dump(2) << "\n";
    else
      console.out << push::render_plan_text(outcome.plan, args.request);
    return exit_code::k_ok;
  }
  if (args.request.move) {
    auto consent = confirm_change(console, args.yes,
                                  "--move deletes each file under " + args.request.source +
                                      " once its copy in the distro is durable and verified. Go on?",
                                  "delete the Windows files with --move");
    if (!consent) {
      outcome.end = push::PushEnd::refused;
      outcome.error = consent.error();
      return report_refusal(outcome, args, console);
    }
  }
  StatusLine status(console.err, "tfwsl data push", machine.clock, status_line_settings(console));
  push::InterruptCatcher interrupt;
  env.interrupted = [&interrupt] { return interrupt.requested(); };
  if (!args.json) {
    env.progress = [&status](const push::JobProgress& p) { status.update_step(push::progress_text(p)); };
    status.start();
  }
  outcome = push::execute_push(env, args.request, std::move(outcome.plan));
  status.stop();
  if (args.json)
    console.out << push::push_to_json(outcome, args.request).dump(2) << "\n";
  else
    console.out << push::render_push_text(outcome, args.request);
  if (outcome.error) console.err << "tfwsl data push: " << outcome.error->describe() << "\n";
  return outcome.exit_code();
}

}  // namespace

void register_data_command(CLI::App& app, CommandTable& commands, Console& console, Machine& machine) {
  auto* data =
      app.add_subcommand("data", "Move datasets into the WSL distro's own filesystem (fast, verified, resumable)");
  data->require_subcommand(1);
  data->footer(help_footer("", {"tfwsl data push D:\\datasets\\imagenet"}));
  auto args = std::make_shared<PushArgs>();
  auto* push = data->add_subcommand("push", "Copy (or --move) a Windows folder into the distro, verified, resumable");
  push->add_option("SRC", args->request.source, "The Windows folder to push (C:\\data\\imgs, \\\\wsl$\\<distro>\\...)")
      ->required();
  push->add_option("--name", args->request.name, "Folder name in the distro (default: SRC's folder name)");
  push->add_option("--to", args->request.to, "Linux folder the data lands in as DIR/NAME (default: ~/datasets)");
  push->add_option("--distro", args->request.distro, "Distribution to push into (default: WSL's default distribution)");
  push->add_flag("--move", args->request.move,
                 "Delete each Windows file once its copy is durable and verified in the distro (asks; --yes)");
  push->add_flag("--verify", args->request.verify, "On a resume, re-read and hash the files already pushed");
  push->add_option("--jobs", args->request.jobs, "Files in flight")->check(CLI::Range(1, 256))->capture_default_str();
  push->add_option("--exclude", args->request.exclude,
                   "Leave out files and folders with this name, at any depth (repeatable): --exclude .git "
                   "--exclude __pycache__")
      ->type_name("NAME")
      ->allow_extra_args(false);
  push->add_flag("--dry-run", args->dry_run, "Resolve, measure and check the room; copy nothing");
  push->add_flag("-y,--yes", args->yes, "Do not ask before --move deletes Windows files");
  push->add_flag("--json", args->json, "Print the result as one JSON object (docs/schema/data-push.schema.json)");
  push->add_option("--agent", args->agent, "The tfwsl-agent binary (as for tfwsl doctor)");
  push->footer(help_footer(
      "Ctrl-C cancels cleanly (exit 130): what is finished stays; the same push again resumes.",
      {"tfwsl data push D:\\datasets\\imagenet",
       "tfwsl data push C:\\Users\\me\\Pictures\\cats --name cats --to ~/data --dry-run",
       "tfwsl data push E:\\raw --move --yes --json", "tfwsl data push C:\\src\\proj --exclude .venv --exclude .git"}));
  commands.add(push, [args, &console, &machine] {
    const FittedOutput fitted(console, !args->json);  // text and messages at the terminal's width
    return run_data_push(*args, console, machine);
  });
}

}  // namespace tfwsl::cli
