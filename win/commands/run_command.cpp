// tfwsl run, tfwsl shell: thin; finding the project, the translation and the start are win/tasks/project_run.
#include "win/commands/run_command.hpp"

#include <memory>

#include "common/cli/json_envelope.hpp"
#include "common/core/exit_codes.hpp"
#include "common/util/shell_quote.hpp"
#include "common/util/visible_text.hpp"
#include "win/render/json_schema_names.hpp"
#include "win/tasks/project_run.hpp"

namespace tfwsl::cli {
namespace {

struct RunArgs {
  RunRequest request;
  bool dry_run = false;
  bool quiet = false;
  bool where = false;
  bool json = false;
  std::vector<std::string> help_only;
};

// Each word as the shell it runs in reads it, or its visible form where it holds what a terminal
// would act on.
std::string shown_command(const std::vector<std::string>& argv) {
  for (const auto& word : argv)
    if (needs_visible_text(word)) return visible_text(describe_command(argv));
  return bash_command(argv);
}

void print_translations(const RunPlace& place, Console& console, const std::string& verb) {
  for (const auto& t : place.command.translated)
    console.err << verb << ": " << visible_text(t.from) << " -> " << visible_text(t.to) << "\n";
}

int print_where(const RunPlace& place, const RunArgs& args, Console& console) {
  const std::int64_t now = migrate::seconds_now();
  if (args.json) {
    console.out << with_json_envelope(where_json(place, now), json_schema::k_run_where, json_schema::k_version)
                       .dump(2, ' ', false, nlohmann::json::error_handler_t::replace)
                << "\n";
    return 0;
  }
  const auto& r = place.record;
  console.out << "distro       " << visible_text(r.distro) << "\nproject      " << visible_text(r.linux_path)
              << "\nfolder       " << visible_text(place.folder) << "\nprofile      " << visible_text(r.profile)
              << "\nvenv         " << visible_text(r.venv) << "\ninterpreter  " << visible_text(r.venv)
              << "/bin/python (Python " << visible_text(r.python) << ")\n";
  for (const auto& [key, value] : r.env) console.out << "env          " << key << "=" << visible_text(value) << "\n";
  console.out << "gpu          " << gpu_words(r.gpu, now) << "\n";
  // An editor outside WSL (PyCharm's "WSL" interpreter) asks for the distro and the interpreter's path.
  if (!place.here)
    console.out << "\nAn editor's WSL interpreter: distribution " << visible_text(r.distro) << ", path "
                << visible_text(r.venv) << "/bin/python\n";
  return 0;
}

int run_in_project(RunArgs& args, Console& console, Machine& machine) {
  const std::string& verb = args.request.verb;
  auto place = find_run_place(args.request, machine);
  if (!place) {
    console.err << verb << ": " << place.error().describe() << "\n";
    return exit_code::k_run_refused;
  }
  if (args.where) return print_where(*place, args, console);
  if (!args.quiet || args.dry_run) print_translations(*place, console, verb);
  if (args.dry_run) {
    console.out << "would run " << (place->here ? "here" : "in " + visible_text(place->record.distro)) << " in "
                << visible_text(place->folder) << ", venv " << visible_text(place->record.venv) << " active";
    for (const auto& [key, value] : place->record.env) console.out << ", " << key << "=" << visible_text(value);
    console.out << ":\n  "
                << (args.request.command.empty() ? std::string("an interactive shell")
                                                 : shown_command(place->command.argv))
                << "\n";
    return 0;
  }
  if (auto unhealthy = unhealthy_reason(place->record)) {
    console.err << verb << ": " << *unhealthy << "\n";
    return exit_code::k_run_refused;
  }
  if (!args.quiet) console.err << verb << ": " << where_line(*place, migrate::seconds_now()) << "\n";
  console.err.flush();
  console.out.flush();
  return run_attached(*place, machine, console, verb);
}

constexpr const char* k_exit_words =
    "Exit status: the command's own (128+N when signal N ended it); tfwsl's own: 125 when tfwsl refuses "
    "or fails before the command starts (no migrated project, a path it cannot translate, an unhealthy "
    "environment), 126 when the command cannot be run, 127 when it is not found.";

void add_place_options(CLI::App* sub, RunArgs& args) {
  sub->add_option("--project", args.request.project,
                  "The migrated project: its Windows folder or its WSL copy (default: the one this folder is in)")
      ->type_name("DIR");
  sub->add_flag("--dry-run", args.dry_run, "Print where and what would run, with the paths translated; run nothing");
  sub->add_flag("-q,--quiet", args.quiet, "No lines of tfwsl's on stderr (where it runs, the paths translated)");
}

}  // namespace

void register_run_commands(CLI::App& app, CommandTable& commands, Console& console, Machine& machine) {
  auto run_args = std::make_shared<RunArgs>();
  auto* run = app.add_subcommand("run", "Run a command in the migrated project in WSL, in its venv, with the GPU");
  add_place_options(run, *run_args);
  run->add_flag("--where", run_args->where,
                "Print where commands run (distro, WSL copy, venv, the interpreter for an editor); run nothing");
  run->add_flag("--json", run_args->json, "With --where: one JSON object (docs/schema/run-where.schema.json)");
  // Everything from the first word that is not run's own option on is the command's, options
  // included (`tfwsl run python train.py --epochs 3`), passed on as given (usage_check.hpp): the
  // parser never sees those words, so COMMAND is here for the help alone.
  run->prefix_command();
  run->add_option("COMMAND", run_args->help_only,
                  "The command and its arguments, passed on as given (Windows paths translated)");
  run->footer(
      help_footer(k_exit_words, {"tfwsl run python train.py", "tfwsl run -- python train.py --data D:\\data\\flowers",
                                 "tfwsl run --dry-run pytest tests", "tfwsl run --where --json"}));
  commands.add(run, [run_args, &commands, &console, &machine] {
    RunArgs& args = *run_args;
    args.request.command = commands.passthrough();
    if (args.json && !args.where) {
      console.err << "tfwsl run: --json goes with --where (a command's own output is not tfwsl's)\n";
      return exit_code::k_run_refused;
    }
    if (args.request.command.empty() && !args.where) {
      console.err << "tfwsl run: name the command to run (tfwsl run python train.py), or use tfwsl shell\n";
      return exit_code::k_run_refused;
    }
    return run_in_project(args, console, machine);
  });

  auto shell_args = std::make_shared<RunArgs>();
  shell_args->request.verb = "tfwsl shell";
  auto* shell = app.add_subcommand("shell", "Open an interactive shell in the migrated project in WSL, venv active");
  add_place_options(shell, *shell_args);
  shell->footer(help_footer(k_exit_words, {"tfwsl shell", "tfwsl shell --project C:\\work\\flowers"}));
  commands.add(shell, [shell_args, &console, &machine] { return run_in_project(*shell_args, console, machine); });
}

}  // namespace tfwsl::cli
