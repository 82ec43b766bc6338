#include "win/commands/wslconfig_restore_command.hpp"

#include <fmt/format.h>

#include <iostream>
#include <memory>

#include "common/cli/fitted_output.hpp"
#include "common/core/exit_codes.hpp"
#include "common/text/utf_convert.hpp"
#include "common/util/byte_size_text.hpp"
#include "common/util/privileged_target.hpp"
#include "common/wslconfig/wslconfig_location.hpp"
#include "win/render/change_consent.hpp"
#include "win/tasks/wslconfig_account.hpp"
#include "win/tasks/wslconfig_backups.hpp"
#include "win/tasks/wslconfig_file.hpp"

namespace tfwsl::cli {
namespace {

struct RestoreArgs {
  std::string backup;  // a number from the list (1: the newest) or a backup's path; empty: list them
  std::string file;
  bool dry_run = false;
  bool yes = false;
};

Result<std::string> wslconfig_path(const RestoreArgs& args, const Console& console, Machine& machine) {
  if (!args.file.empty()) return args.file;
  const wslconfig::EnvironmentLookup getenv = [&console](const std::string& name) -> std::optional<std::string> {
    auto value = console.environment ? console.environment(name) : std::nullopt;
    return value && !value->empty() ? value : std::nullopt;
  };
  return default_wslconfig_path(getenv, machine);
}

int list(const std::string& path, const std::vector<WslconfigBackup>& backups, Console& console) {
  if (backups.empty()) {
    console.out << "No backups of " << path << " made by tfwsl (tfwsl wslconfig set and unset make one each time).\n";
    return exit_code::k_ok;
  }
  console.out << "Backups of " << path << " made by tfwsl, newest first:\n";
  for (std::size_t i = 0; i < backups.size(); ++i)
    console.out << fmt::format("  {}  {}  {}\n      {}\n", i + 1, backups[i].stamp, format_bytes(backups[i].size),
                               backups[i].path);
  console.out << "Put one back: tfwsl wslconfig restore 1 (the newest; --dry-run to see it first)\n";
  return exit_code::k_ok;
}

// The backup BACKUP names: its number in the list, or its path, which must be one of them (tfwsl
// puts back only what it saved).
const WslconfigBackup* chosen(const std::string& backup, const std::vector<WslconfigBackup>& backups) {
  const bool number =
      !backup.empty() && backup.find_first_not_of("0123456789") == std::string::npos && backup.size() < 4;
  if (number) {
    const std::size_t n = std::stoul(backup);
    return n >= 1 && n <= backups.size() ? &backups[n - 1] : nullptr;
  }
  for (const auto& b : backups)
    if (b.path == backup) return &b;
  return nullptr;
}

// Under the lock beside the file, as `wslconfig set` writes: the file read again (so the backup
// holds what it holds now, not what it held when the question was asked), a read-only file
// refused, then the backup and the atomic replace.
Result<WriteOutcome> replace_locked(const WslconfigFile& previewed, const std::string& bytes) {
  TFWSL_TRY(lock, lock_wslconfig_file(previewed));
  TFWSL_TRY(now, read_wslconfig_file(previewed.path));
  TFWSL_TRY_STATUS(check_writable(now));
  return write_wslconfig_file(now, bytes);
}

int restore(const RestoreArgs& args, const std::string& path, const std::vector<WslconfigBackup>& backups,
            Console& console) {
  const WslconfigBackup* pick = chosen(args.backup, backups);
  if (!pick) {
    console.err << "tfwsl wslconfig restore: '" << args.backup << "' is not one of the " << backups.size()
                << " backups tfwsl made of " << path << "; 'tfwsl wslconfig restore' lists them\n";
    return exit_code::k_usage;
  }
  auto current = read_wslconfig_file(path);
  auto saved = read_wslconfig_file(pick->path);
  if (!current || !saved) {
    console.err << "tfwsl wslconfig restore: " << (!current ? current.error() : saved.error()).describe() << "\n";
    return exit_code::k_failure;
  }
  console.out << "Restore " << path << " (" << format_bytes(current->bytes.size()) << ") from the backup of "
              << pick->stamp << " (" << format_bytes(saved->bytes.size()) << "):\n"
              << saved->bytes << (saved->bytes.empty() || saved->bytes.back() == '\n' ? "" : "\n");
  const ConsentRequest ask{"Replace " + path + " with it? (the current file is kept as a backup)", args.yes,
                           args.dry_run, console.in_is_terminal && console.err_is_terminal};
  switch (ask_consent(ask, std::cin, console.err)) {
    case Consent::granted:
      break;
    case Consent::dry_run:
      return exit_code::k_ok;
    case Consent::needs_yes:
      console.err << needs_yes_message("tfwsl wslconfig restore", "restore it") << "\n";
      return exit_code::k_failure;
    case Consent::declined:
      console.err << "tfwsl wslconfig restore: " << path << " kept as it was\n";
      return exit_code::k_failure;
  }
  auto written = replace_locked(*current, saved->bytes);
  if (!written) {
    console.err << "tfwsl wslconfig restore: " << written.error().describe() << "\n";
    return exit_code::k_failure;
  }
  console.out << "restored " << path << (written->backup ? "; the file it replaced is kept as " + *written->backup : "")
              << "\nWSL reads it when it starts: wsl --shutdown, or tfwsl wslconfig set KEY=VALUE --apply\n";
  return exit_code::k_ok;
}

int run_restore(const RestoreArgs& args, Console& console, Machine& machine) {
  auto path = wslconfig_path(args, console, machine);
  if (!path) {
    console.err << "tfwsl wslconfig restore: " << path.error().describe() << "\n";
    return exit_code::k_usage;
  }
  // The privileged rule first: a link it refuses is named before any backup is listed or read.
  auto ownership = judge_write_target(path_from_utf8(*path));
  if (!ownership) {
    console.err << "tfwsl wslconfig restore: " << ownership.error().describe() << "\n";
    return exit_code::k_failure;
  }
  // The backups lie beside the file a link ends at (a link to nothing: beside the link).
  const auto backups = list_wslconfig_backups(wslconfig_link_target(*path).value_or(*path), ownership->owner);
  return args.backup.empty() ? list(*path, backups, console) : restore(args, *path, backups, console);
}

}  // namespace

void register_wslconfig_restore_command(CLI::App* group, CommandTable& commands, Console& console, Machine& machine) {
  auto args = std::make_shared<RestoreArgs>();
  CLI::App* cmd = group->add_subcommand("restore", "List the backups tfwsl made of .wslconfig, or put one back");
  cmd->add_option("backup", args->backup, "The backup to put back: its number in the list (1: the newest) or its path");
  cmd->add_option("--file", args->file,
                  "The .wslconfig to use (default: %UserProfile%\\.wslconfig; required on Linux outside WSL)");
  cmd->add_flag("--dry-run", args->dry_run, "Show what would be put back and write nothing");
  cmd->add_flag("-y,--yes", args->yes, "Do not ask (needed when stdin is not a terminal)");
  cmd->footer(help_footer("", {"tfwsl wslconfig restore              list the backups",
                               "tfwsl wslconfig restore 1 --dry-run  show the newest",
                               "tfwsl wslconfig restore 1 --yes      put it back"}));
  commands.add(cmd, [args, &console, &machine] {
    const FittedOutput fitted(console, true);  // every line at the terminal's width
    return run_restore(*args, console, machine);
  });
}

}  // namespace tfwsl::cli
