#include "win/tasks/wslconfig_file.hpp"

#include <fmt/chrono.h>
#include <fmt/format.h>

#include <ctime>
#include <filesystem>

#include "common/text/utf_convert.hpp"
#include "common/util/atomic_file.hpp"
#include "common/util/regular_file.hpp"
#include "common/util/shell_quote.hpp"
#include "win/tasks/wslconfig_backups.hpp"

namespace tfwsl::cli {
namespace {

namespace fs = std::filesystem;

constexpr int k_max_backup_names = 1000;

Result<std::string> read_bytes(const fs::path& path, const std::string& shown, bool& exists) {
  const RegularFileRead read = read_regular_file(path, k_max_wslconfig_bytes);
  exists = read.problem != FileReadProblem::missing;
  switch (read.problem) {
    case FileReadProblem::none:
    case FileReadProblem::missing:
      return read.bytes;
    case FileReadProblem::not_regular:
      return make_error(ErrorCode::invalid_input,
                        fmt::format("{} is {}, not a .wslconfig file: name the file (--file)", shown, read.kind));
    case FileReadProblem::too_large:
      return make_error(
          ErrorCode::invalid_input,
          fmt::format("{} is {} bytes or more, more than a .wslconfig can be ({} bytes): name the .wslconfig file",
                      shown, read.size, k_max_wslconfig_bytes));
    case FileReadProblem::unreadable:
      break;
  }
  return make_error(ErrorCode::io, fmt::format("cannot read {} ({}): check that it is readable", shown, read.why));
}

}  // namespace

Result<std::string> wslconfig_link_target(const std::string& path) {
  const fs::path p = path_from_utf8(path);
  std::error_code ec;
  if (!fs::is_symlink(fs::symlink_status(p, ec))) return path;
  const fs::path target = fs::weakly_canonical(p, ec);
  if (ec || !fs::exists(target, ec))
    return make_error(ErrorCode::not_found,
                      fmt::format("{} is a link to {}, which does not exist: create that file or remove the link", path,
                                  path_to_utf8(fs::read_symlink(p, ec))));
  return path_to_utf8(target);
}

namespace {

// The first free backup name, created exclusively: two runs in the same second never share one.
Result<std::string> write_backup(const WslconfigFile& file) {
  const std::string base = backup_base_for(file.target, std::chrono::system_clock::now());
  std::error_code ec;
  const fs::perms perms = fs::status(path_from_utf8(file.target), ec).permissions() & fs::perms::all;
  for (int n = 1; n <= k_max_backup_names; ++n) {
    const std::string candidate = n == 1 ? base : base + "-" + std::to_string(n);
    auto saved =
        write_new_file(path_from_utf8(candidate), file.bytes, ec ? k_new_file_perms : perms, file.ownership.owner);
    if (saved) return candidate;
    if (saved.error().code != ErrorCode::conflict)
      return make_error(ErrorCode::io, "nothing changed: the backup could not be written: " + saved.error().describe());
  }
  return make_error(ErrorCode::io, "nothing changed: " + std::to_string(k_max_backup_names) + " backups named " + base +
                                       "* exist: remove old ones");
}

}  // namespace

Result<WslconfigFile> read_wslconfig_file(const std::string& path) {
  TFWSL_TRY(ownership, judge_write_target(path_from_utf8(path)));
  TFWSL_TRY(target, wslconfig_link_target(path));
  WslconfigFile file{path, target, false, {}, ownership};
  bool exists = false;
  TFWSL_TRY(bytes, read_bytes(path_from_utf8(target), path, exists));
  file.exists = exists;
  file.bytes = std::move(bytes);
  return file;
}

Result<FileLock> lock_wslconfig_file(const WslconfigFile& file) {
  auto lock =
      FileLock::acquire(path_from_utf8(file.target + ".tfwsl-lock"), k_wslconfig_lock_wait, file.ownership.owner);
  if (!lock) return make_error(lock.error().code, "nothing changed: " + lock.error().describe());
  return lock;
}

Status check_writable(const WslconfigFile& file) {
  if (!file.exists || !is_write_protected(path_from_utf8(file.target))) return {};
  const std::string named = file.is_link() ? file.target + " (where the link " + file.path + " points)" : file.path;
#ifdef _WIN32
  const std::string fix = "in PowerShell: " + powershell_command({"attrib", "-R", file.target});
#else
  const std::string fix = bash_command({"chmod", "u+w", file.target});
#endif
  return make_error(
      ErrorCode::permission,
      "nothing changed: " + named + " is read-only; if it should change, make it writable (" + fix + ") and run again");
}

std::string backup_base_for(const std::string& target, std::chrono::system_clock::time_point when) {
  const std::time_t t = std::chrono::system_clock::to_time_t(when);
  return fmt::format("{}.tfwsl-backup-{:%Y%m%d-%H%M%S}", target, fmt::gmtime(t));
}

Result<WriteOutcome> write_wslconfig_file(const WslconfigFile& file, const std::string& new_bytes) {
  const fs::path target = path_from_utf8(file.target);
  const fs::path folder = target.has_parent_path() ? target.parent_path() : fs::path(".");
  std::error_code ec;
  if (!fs::is_directory(folder, ec))
    return make_error(ErrorCode::not_found,
                      "cannot write " + file.path + ": the folder " + path_to_utf8(folder) + " does not exist");
  TFWSL_TRY_STATUS(check_writable(file));
  WriteOutcome outcome;
  if (file.exists) {
    TFWSL_TRY(backup, write_backup(file));
    outcome.backup = backup;
    // Beside the file written; the last five are kept, only tfwsl's own names (and, guarded, the owner's files) go.
    prune_wslconfig_backups(file.target, file.ownership.owner);
  }
  const std::string kept = outcome.backup ? "; the previous file is kept as " + *outcome.backup : "";
  if (auto replaced = replace_file_atomically(target, new_bytes, file.ownership.owner); !replaced)
    return make_error(replaced.error().code, replaced.error().describe() + " (the file is unchanged" + kept + ")");
  bool exists = false;
  TFWSL_TRY(read_back, read_bytes(target, file.path, exists));
  if (read_back != new_bytes)
    return make_error(ErrorCode::io, file.path + " does not read back as written (something else changed it?)" + kept);
  return outcome;
}

}  // namespace tfwsl::cli
