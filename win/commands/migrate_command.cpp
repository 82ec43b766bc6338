#include "win/commands/migrate_command.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/cli/command_line.hpp"
#include "common/cli/fitted_output.hpp"
#include "common/cli/json_envelope.hpp"
#include "common/core/exit_codes.hpp"
#include "common/process/process_runner.hpp"
#include "common/text/utf_convert.hpp"
#include "common/wsl/drive_path.hpp"
#include "win/host/gpu_compute_capability.hpp"
#include "win/host/host_probe.hpp"
#include "win/migrate/local_project_files.hpp"
#include "win/migrate/migrate_plan.hpp"
#include "win/migrate/proc_mounts.hpp"
#include "win/render/json_schema_names.hpp"
#include "win/tasks/default_distro.hpp"
#include "win/tasks/migrate_apply.hpp"
#include "win/wsl/automount_query.hpp"
#include "win/wsl/wsl_client.hpp"

namespace tfwsl::cli {
namespace {

struct MigrateArgs {
  std::string project;
  bool dry_run = false;
  bool json = false;
  bool force = false;
  bool yes = false;
  bool copy_git = false;
  unsigned jobs = 16;
  std::string name;
  std::string profile;
  std::string to = "~/projects";
  std::string data_to = "~/datasets";
  std::string agent;
};

// The distro's drive mounts, when the target distro is installed (read-only: /proc/mounts).
std::optional<std::set<char>> distro_drives(const std::string& distro, wsl::WslClient& wsl) {
  auto reply = wsl.exec({distro, {}, {}}, {"cat", "/proc/mounts"});
  if (!reply || reply->exit_code != 0) {
    spdlog::debug("migrate: cannot read the drive mounts of {}: the distro may not be installed yet", distro);
    return std::nullopt;
  }
  // A running Linux always mounts something: an empty answer was lost, not "no drives mounted"
  // (which would refuse every dataset on a drive).
  if (reply->text.find_first_not_of(" \t\r\n") == std::string::npos) {
    spdlog::warn("migrate: {} answered /proc/mounts with nothing; its drive mounts are not known", distro);
    return std::nullopt;
  }
  return migrate::drives_in_proc_mounts(reply->text);
}

// This machine's WSL 2 distributions, for the distro migrate sets the project up in
// (win/migrate/distro_choice.hpp); natively there is no WSL to ask.
std::optional<std::vector<std::string>> installed_distros(Machine& machine) {
  if (!machine.host.system().is_windows) return std::nullopt;
  return wsl2_distro_names(machine.wsl);
}

// This machine's GPUs with their compute capability, read before the plan (dry run and apply alike)
// so the plan can be refused on a GPU no stock wheel runs on. On Windows nvidia-smi.exe where the
// doctor looks for it; elsewhere (native Linux, inside a distro) nvidia-smi on PATH.
host::GpuReading read_gpus(const Console& console, ProcessRunner& processes) {
  const EnvironmentLookup getenv =
      console.environment ? console.environment : EnvironmentLookup(wsl::process_environment_variable);
  std::vector<std::string> candidates = host::nvidia_smi_candidates(getenv);
#ifndef _WIN32
  if (!getenv(host::k_nvidia_smi_env)) candidates = {"nvidia-smi"};
#endif
  return host::read_gpu_compute_capabilities(processes, candidates);
}

// The project folder by its real path: `tfwsl migrate .` is the folder's own name, and the copy
// reads an absolute path whatever the current folder is when a step runs.
std::filesystem::path real_folder(const std::string& given) {
  std::error_code ec;
#ifdef _WIN32
  // The drive path as the user knows it: the copy engine asks the distro for this drive's mount.
  std::filesystem::path p = std::filesystem::absolute(path_from_utf8(given), ec).lexically_normal();
#else
  std::filesystem::path p = std::filesystem::canonical(path_from_utf8(given), ec);
  if (ec) p = std::filesystem::absolute(path_from_utf8(given), ec).lexically_normal();
#endif
  if (!p.has_filename() && p.has_relative_path()) p = p.parent_path();
  return p;
}

std::string folder_name(const std::filesystem::path& real) { return path_to_utf8(real.filename()); }

void print_error(Console& console, const MigrateArgs& args, const std::string& message) {
  if (args.json) {
    nlohmann::json j = with_json_envelope({{"error", message}}, json_schema::k_migrate_plan, json_schema::k_version);
    console.out << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  }
  console.err << "tfwsl migrate: " << message << "\n";
}

int run_migrate(const MigrateArgs& args, Console& console, Machine& machine) {
  const std::filesystem::path root = real_folder(args.project);
  // Where this Linux mounts the Windows drives, for the Windows paths a project names (on Windows such
  // a path is itself).
  migrate::LocalProjectFiles files(root, machine.host.drive_root());
  if (!files.project_exists()) {
    print_error(
        console, args,
        fmt::format(
            "'{}' is not a folder: pass the project's folder (the one with requirements.txt); nothing was changed",
            args.project));
    return exit_code::k_failure;
  }
  const auto profiles = migrate::shipped_wsl_profiles();
  const auto& facts = migrate::builtin_migrate_facts();
  const migrate::PlanInput input{files,
                                 args.name.empty() ? folder_name(root) : args.name,
                                 args.to,
                                 args.data_to,
                                 args.force,
                                 facts,
                                 profiles,
                                 path_to_utf8(root),
                                 args.profile,
                                 read_gpus(console, machine.processes),
                                 installed_distros(machine)};
  auto plan = migrate::build_plan(input);
  // On Windows only the target distro can say which drives it mounts; asked only when the code names
  // Windows paths (each wsl.exe start costs), and its answer adds to the plan made once.
  if (plan && !files.mounted_drives() && plan->decision.target && !plan->windows_paths.empty()) {
    if (auto drives = distro_drives(plan->decision.target->distro, machine.wsl)) {
      files.set_mounted_drives(*drives);
      migrate::add_unmounted_drive_problems(*drives, *plan);
    }
  }
  if (!plan) {
    print_error(console, args, plan.error().describe());
    return exit_code::k_failure;
  }
  const int code = migrate::exit_code_for(*plan);
  if (!args.dry_run && code == exit_code::k_ok)
    return apply_migration({args.project, root, args.yes, args.json, args.copy_git, args.jobs, args.agent}, *plan,
                           console, machine);
  if (args.json) {
    auto j = with_json_envelope(migrate::to_json(*plan), json_schema::k_migrate_plan, json_schema::k_version);
    console.out << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  } else {
    console.out << migrate::render_text(*plan);
  }
  console.out.flush();
  if (code == exit_code::k_failure) {
    console.err << fmt::format("tfwsl migrate: {}{}: see the plan's reasons; nothing was changed\n",
                               migrate::to_string(plan->decision.decision),
                               plan->problems.empty() ? "" : ", with problems in the plan");
  }
  return code;
}

}  // namespace

void register_migrate_command(CLI::App& app, CommandTable& commands, Console& console, Machine& machine) {
  auto args = std::make_shared<MigrateArgs>();
  CLI::App* sub =
      app.add_subcommand("migrate", "Move a Windows TensorFlow project, its requirements and its data into WSL");
  sub->add_option("project", args->project, "The project's folder")->required();
  sub->add_flag("--dry-run", args->dry_run, "Print the plan and change nothing");
  sub->add_flag("--json", args->json,
                "Print the plan (and the applied steps) as one JSON object (schema tfwsl.migrate.plan)");
  sub->add_flag("--force", args->force, "Migrate a project that native Windows could still run (TF 2.10 or older)");
  sub->add_option("--profile", args->profile,
                  "The shipped WSL profile to migrate to (refused when the project's pins exclude it)");
  sub->add_option("--name", args->name, "The project's folder name in WSL (default: the Windows folder's name)");
  sub->add_option("--to", args->to, "Linux folder the project lands in as DIR/NAME")->capture_default_str();
  sub->add_option("--data-to", args->data_to, "Linux folder the datasets land in as DIR/NAME")->capture_default_str();
  sub->add_flag("-y,--yes", args->yes, "Apply without asking");
  sub->add_option("--jobs", args->jobs, "Files in flight in the copies")
      ->check(CLI::Range(1, 256))
      ->capture_default_str();
  sub->add_flag("--copy-git", args->copy_git, "Copy the project's .git folder too (left out by default)");
  sub->add_option("--agent", args->agent,
                  "The tfwsl-agent binary on native Linux (default: TFWSL_AGENT, then beside tfwsl)");
  sub->footer(help_footer(
      "Exit status: 0 migrated (or, with --dry-run, the plan can go ahead), 1 native Windows can still run it "
      "(pass --force), 2 TF 1.x, conflicting or unshipped pins, a venv --profile on a GPU no stock wheel runs on "
      "(Blackwell: without --profile migrate plans NVIDIA's TensorFlow image there), "
      "bad input (nothing was changed) or a failed step "
      "(the steps before it stay done: the same command resumes), 130 interrupted.",
      {"tfwsl migrate C:\\work\\flowers --dry-run          the plan: profile, requirement diff, datasets",
       "tfwsl migrate C:\\work\\flowers --yes              provision, copy, import, install, check",
       "tfwsl migrate . --dry-run --json                  the plan as JSON, for a script",
       "tfwsl migrate C:\\work\\old-tf210 --dry-run --force  what moving a TF 2.10 project would do"}));
  commands.add(sub, [args, &console, &machine] {
    const FittedOutput fitted(console, !args->json);  // text at the terminal's width; JSON as it is
    return run_migrate(*args, console, machine);
  });
}

}  // namespace tfwsl::cli
