#include "linux/commands/dataset_command.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <future>
#include <memory>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "common/agent_api/exclude_names.hpp"
#include "common/cli/json_envelope.hpp"
#include "common/core/exit_codes.hpp"
#include "common/util/byte_size_text.hpp"
#include "common/util/clock_text.hpp"
#include "linux/agent/agent_schema_names.hpp"
#include "linux/dataset/import_engine.hpp"

namespace tfwsl::agent {
namespace {

using namespace std::chrono_literals;

struct ImportArguments {
  std::string source;
  std::string target;
  bool move = false;
  bool verify = false;
  unsigned jobs = dataset::k_default_jobs;
  std::vector<std::string> exclude;
  bool json = false;
  bool skip_space_check = false;
};

// SIGINT/SIGTERM stop the import cleanly (temporary files removed, finished files kept); the
// handler only sets the token's lock-free flag (StopSignalsCancel installs it).
dataset::CancelToken* g_cancel = nullptr;
extern "C" void on_stop_signal(int) {
  if (g_cancel != nullptr) g_cancel->cancel();
}

int exit_code_for(ErrorCode code) {
  return code == ErrorCode::cancelled ? exit_code::k_interrupted : exit_code::k_failure;
}

// The machine's import_step observer is the engine's fault hook: none in the shipped agent; the test
// agent (tests/helpers/test_mains) kills itself there at a chosen step (fault_injection.py).
Result<dataset::ImportOptions> import_options_from(const ImportArguments& args, const AgentMachine& machine) {
  dataset::ImportOptions options;
  options.source = args.source;
  options.target = args.target;
  options.move = args.move;
  options.verify = args.verify;
  options.jobs = args.jobs;
  options.skip_space_check = args.skip_space_check;
  TFWSL_TRY_STATUS(agent_api::check_exclude_names(args.exclude, "--exclude"));
  options.exclude = args.exclude;
  options.fault_hook = machine.import_step;
  return options;
}

// SIGINT and SIGTERM cancel the token while this lives; the previous handlers come back after.
class StopSignalsCancel {
 public:
  explicit StopSignalsCancel(dataset::CancelToken& cancel) {
    g_cancel = &cancel;
    struct sigaction action {};
    action.sa_handler = on_stop_signal;
    sigemptyset(&action.sa_mask);
    sigaction(SIGINT, &action, &m_old_int);
    sigaction(SIGTERM, &action, &m_old_term);
  }
  ~StopSignalsCancel() {
    sigaction(SIGINT, &m_old_int, nullptr);
    sigaction(SIGTERM, &m_old_term, nullptr);
    g_cancel = nullptr;
  }
  StopSignalsCancel(const StopSignalsCancel&) = delete;
  StopSignalsCancel& operator=(const StopSignalsCancel&) = delete;

 private:
  struct sigaction m_old_int {};
  struct sigaction m_old_term {};
};

// The import on its own thread while this one shows progress on stderr (stdout carries only the
// result): a live line on a terminal, a plain line every few seconds otherwise (logs, the agent's
// job output).
Result<dataset::ImportReport> run_with_progress(const dataset::ImportOptions& options,
                                                dataset::ProgressTracker& progress, const dataset::CancelToken& cancel,
                                                Console& console) {
  auto job = std::async(std::launch::async, [&] { return dataset::run_import(options, progress, cancel); });
  bool live = isatty(STDERR_FILENO) == 1;
  auto period = live ? 250ms : 5s;
  auto last_plain = std::chrono::steady_clock::now();
  while (job.wait_for(live ? period : 250ms) != std::future_status::ready) {
    auto snapshot = progress.snapshot();
    if (live) {
      console.err << "\r\033[K" << dataset::render_progress_line(snapshot) << std::flush;
    } else if (std::chrono::steady_clock::now() - last_plain >= period) {
      console.err << dataset::render_progress_line(snapshot) << '\n' << std::flush;
      last_plain = std::chrono::steady_clock::now();
    }
  }
  if (live) console.err << "\r\033[K" << std::flush;
  return job.get();
}

int report_import_failure(const Error& error, const dataset::ProgressTracker& progress, const ImportArguments& args,
                          Console& console) {
  spdlog::debug("import failed: {}", error.detail);
  if (args.json) {
    nlohmann::json out{{"ok", false},
                       {"error", {{"code", to_string(error.code)}, {"message", error.message}}},
                       {"progress", agent_api::to_json(progress.snapshot())}};
    console.out << with_json_envelope(std::move(out), json_schema::k_dataset_import, json_schema::k_version).dump(2)
                << '\n';
  }
  console.err << "tfwsl-agent dataset import: " << error.describe() << '\n';
  return exit_code_for(error.code);
}

void print_import_summary(const dataset::ImportReport& report, const ImportArguments& args, Console& console) {
  const auto& t = report.totals;
  console.out << fmt::format("imported {} file(s) ({} copied, {} already there{}), {} in {}, {}/s\n", t.files_done,
                             t.files_copied, t.files_skipped,
                             args.move ? fmt::format(", {} source file(s) removed", t.files_moved) : "",
                             format_bytes(static_cast<double>(t.bytes_done)), format_clock(t.elapsed_seconds),
                             format_bytes(t.bytes_per_second));
  for (const auto& problem : report.problems)
    console.out << fmt::format("  problem [{}] {}: {}\n", problem.kind, dataset::display_path(problem.path),
                               problem.message);
  if (report.problems_not_listed > 0)
    console.out << fmt::format("  ... and {} more problem(s)\n", report.problems_not_listed);
  if (!report.unusual_names.empty())
    console.out << fmt::format("  note: {} name(s) that Windows cannot show or re-create, e.g. {}\n",
                               report.unusual_names.size(), dataset::display_path(report.unusual_names.front()));
}

int report_import_result(const dataset::ImportReport& report, const ImportArguments& args, Console& console) {
  if (args.json) {
    nlohmann::json out = dataset::to_json(report);
    out["ok"] = true;
    console.out << with_json_envelope(std::move(out), json_schema::k_dataset_import, json_schema::k_version).dump(2)
                << '\n';
  } else {
    print_import_summary(report, args, console);
  }
  bool problems = !report.problems.empty() || report.problems_not_listed > 0;
  return problems ? exit_code::k_warning : exit_code::k_ok;
}

int run_import_command(const ImportArguments& args, Console& console, const AgentMachine& machine) {
  auto options = import_options_from(args, machine);
  if (!options) {
    console.err << "tfwsl-agent dataset import: " << options.error().message << '\n';
    return exit_code::k_failure;
  }
  SteadyClock clock;
  dataset::ProgressTracker progress(clock);
  dataset::CancelToken cancel;
  auto result = [&] {
    StopSignalsCancel signals(cancel);
    return run_with_progress(*options, progress, cancel, console);
  }();
  if (!result) return report_import_failure(result.error(), progress, args, console);
  return report_import_result(*result, args, console);
}

}  // namespace

void register_dataset_command(CLI::App& app, CommandTable& commands, Console& console, AgentMachine& machine) {
  CLI::App* dataset = app.add_subcommand("dataset", "Datasets inside the distro: verified, resumable import");
  dataset->require_subcommand(1);
  dataset->footer(help_footer("", {"tfwsl-agent dataset import --source /mnt/c/data/images --target ~/data/images",
                                   "tfwsl-agent dataset import --help"}));
  auto args = std::make_shared<ImportArguments>();
  CLI::App* import = dataset->add_subcommand(
      "import",
      "Copy (or --move) a folder tree into the distro's own filesystem: parallel, hashed (XXH3-128), durable "
      "before it is visible, verified, and resumable: run the same command again after an interruption.");
  import->add_option("--source", args->source, "Folder to import (e.g. /mnt/c/data/images)")->required();
  import->add_option("--target", args->target, "Folder to import into (created if missing)")->required();
  import->add_flag("--move", args->move,
                   "Delete each source file once its copy is durable and verified (changed files are kept)");
  import->add_flag("--verify", args->verify, "On resume, re-read and hash the files already in the target");
  import->add_option("--jobs", args->jobs, "Files in flight at once")
      ->default_val(dataset::k_default_jobs)
      ->check(CLI::Range(1u, dataset::k_max_jobs));
  import
      ->add_option("--exclude", args->exclude,
                   "Leave out files and folders with this name, at any depth (repeatable): --exclude .git "
                   "--exclude __pycache__")
      ->type_name("NAME")
      ->allow_extra_args(false);
  import->add_flag("--json", args->json, "Print the result as JSON on stdout");
  import
      ->add_flag("--skip-space-check", args->skip_space_check,
                 "Skip the free-space preflight (tests use it to reach ENOSPC mid-run)")
      ->group("");  // hidden: not for everyday use
  import->footer(help_footer(
      "Run the same command again after an interruption: finished files are kept, the rest is copied.",
      {"tfwsl-agent dataset import --source /mnt/c/data/images --target ~/data/images",
       "tfwsl-agent dataset import --source /mnt/d/raw --target ~/data/raw --move --jobs 8",
       "tfwsl-agent dataset import --source /mnt/c/src/proj --target ~/proj --exclude .venv --exclude __pycache__",
       "tfwsl-agent dataset import --source /mnt/c/data --target ~/data --verify --json"}));
  commands.add(import, [args, &console, &machine] { return run_import_command(*args, console, machine); });
}

}  // namespace tfwsl::agent
