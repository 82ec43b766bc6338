#include "win/tasks/project_run.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <system_error>

#include "common/core/exit_codes.hpp"
#include "common/text/utf_convert.hpp"
#include "common/util/atomic_file.hpp"
#include "common/util/regular_file.hpp"
#include "common/util/visible_text.hpp"

namespace tfwsl::cli {
namespace {

// The venv made current as `activate` makes it (PATH and VIRTUAL_ENV; PYTHONHOME unset), after
// checking that its python runs: a constant text, with the venv and the command as its arguments,
// so nothing of the project's or the user's is ever read as shell code. `exec` leaves the shell
// out of the way: the command's exit status, signals and terminal are its own, and a command that
// is not there or cannot be run gives exec's 127 or 126. No command: the user's shell.
constexpr const char* k_activate_and_exec =
    "v=$1; shift\n"
    "if [ ! -x \"$v/bin/python\" ]; then\n"
    "  echo \"tfwsl: the environment is not healthy: $v/bin/python does not run; fix: run tfwsl migrate on the "
    "project again, which provisions the venv anew\" >&2\n"
    "  exit 125\n"
    "fi\n"
    "export VIRTUAL_ENV=\"$v\" PATH=\"$v/bin:$PATH\"; unset PYTHONHOME\n"
    "[ \"$#\" -gt 0 ] || set -- \"${SHELL:-/bin/bash}\" -i\n"
    "exec \"$@\"\n";

constexpr int k_folder_levels = 256;  // a walk up from the folder ends at the root long before

std::filesystem::path start_folder(const RunRequest& request) {
  std::error_code ec;
  std::filesystem::path folder = request.project.empty()
                                     ? std::filesystem::current_path(ec)
                                     : std::filesystem::absolute(path_from_utf8(request.project), ec);
  return folder.lexically_normal();
}

Result<std::pair<migrate::WslCopyRecord, std::filesystem::path>> find_record(const std::filesystem::path& start) {
  std::filesystem::path folder = start;
  for (int level = 0; level < k_folder_levels; ++level) {
    const std::filesystem::path file = folder / path_from_utf8(migrate::k_wsl_copy_record);
    const RegularFileRead read = read_regular_file(file, migrate::k_wsl_copy_max_bytes);
    if (read.problem == FileReadProblem::none) {
      TFWSL_TRY(record, migrate::parse_wsl_copy_record(read.bytes, shown_path(file)));
      return std::pair{std::move(record), file};
    }
    if (read.problem != FileReadProblem::missing)
      return make_error(ErrorCode::invalid_input, fmt::format("{} {}", visible_text(path_to_utf8(file)),
                                                              read_problem_text(read, migrate::k_wsl_copy_max_bytes)));
    if (!folder.has_parent_path() || folder.parent_path() == folder) break;
    folder = folder.parent_path();
  }
  const std::string shown = visible_text(path_to_utf8(start));
  return make_error(ErrorCode::invalid_input,
                    fmt::format("{} is in no migrated project (no {} in it or a folder above); fix: run `tfwsl "
                                "migrate PROJECT` first, or name the project with --project",
                                shown, migrate::k_wsl_copy_record));
}

std::vector<std::string> linux_command(const migrate::WslCopyRecord& record, const std::vector<std::string>& command) {
  std::vector<std::string> argv{"/usr/bin/env"};
  for (const auto& [key, value] : record.env) argv.push_back(key + "=" + value);
  argv.insert(argv.end(), {"/bin/sh", "-c", k_activate_and_exec, "tfwsl-run", record.venv});
  argv.insert(argv.end(), command.begin(), command.end());
  return argv;
}

std::string age_words(std::int64_t seconds) {
  if (seconds < 120) return "just now";
  if (seconds < 2 * 3600) return fmt::format("{} minutes ago", seconds / 60);
  if (seconds < 2 * 86400) return fmt::format("{} hours ago", seconds / 3600);
  return fmt::format("{} days ago", seconds / 86400);
}

}  // namespace

Result<RunPlace> find_run_place(const RunRequest& request, Machine& machine) {
  const std::filesystem::path start = start_folder(request);
  TFWSL_TRY(found, find_record(start));
  RunPlace place;
  place.record = std::move(found.first);
  for (const auto& [key, value] : request.extra_env) place.record.env[key] = value;
  place.record_file = path_to_utf8(found.second);
  place.here = !machine.host.system().is_windows;
  migrate::PathPlace paths{place.record.windows_path, place.record.linux_path, place.record.path_map,
                           machine.host.drive_root(), place.record.distro};
  place.folder = migrate::copy_folder_for(path_to_utf8(start), paths);
  TFWSL_TRY(translated, migrate::translate_arguments(request.command, paths));
  place.command = std::move(translated);
  const std::vector<std::string> inner = linux_command(place.record, place.command.argv);
  if (place.here) {
    place.launch = {inner, {}, path_from_utf8(place.folder)};
  } else {
    place.launch.argv = machine.wsl.exec_argv({place.record.distro, "", place.folder}, inner);
    place.launch.env = wsl::WslClient::child_environment();
  }
  return place;
}

std::optional<std::string> unhealthy_reason(const migrate::WslCopyRecord& record) {
  if (record.gpu.checked_at == 0 || record.gpu.ok) return std::nullopt;
  return fmt::format(
      "the last GPU check of this environment failed ({}); fix: run `tfwsl doctor`, then "
      "`tfwsl migrate` on the project again",
      visible_text(record.gpu.summary));
}

std::string gpu_words(const migrate::RecordedGpuCheck& gpu, std::int64_t now) {
  if (gpu.checked_at == 0) return "GPU not checked yet";
  return fmt::format("GPU {} {}{}", gpu.ok ? "checked" : "check failed", age_words(now - gpu.checked_at),
                     gpu.summary.empty() ? "" : " (" + visible_text(gpu.summary) + ")");
}

std::string where_line(const RunPlace& place, std::int64_t now) {
  const auto& r = place.record;
  return fmt::format("{} {}, venv {} (profile {}), {}", place.here ? "here, in" : "in " + visible_text(r.distro),
                     visible_text(place.folder), visible_text(r.venv), visible_text(r.profile), gpu_words(r.gpu, now));
}

nlohmann::json where_json(const RunPlace& place, std::int64_t now) {
  const auto& r = place.record;
  nlohmann::json translated = nlohmann::json::array();
  for (const auto& t : place.command.translated) translated.push_back({{"from", t.from}, {"to", t.to}});
  return {{"distro", r.distro},
          {"here", place.here},
          {"project", {{"windows_path", r.windows_path}, {"linux_path", r.linux_path}, {"record", place.record_file}}},
          {"folder", place.folder},
          {"profile", r.profile},
          {"venv", r.venv},
          {"python", {{"version", r.python}, {"interpreter", r.venv + "/bin/python"}}},
          {"env", r.env},
          {"gpu",
           {{"ok", r.gpu.ok},
            {"summary", r.gpu.summary},
            {"checked_at", r.gpu.checked_at},
            {"age_seconds", r.gpu.checked_at == 0 ? nlohmann::json(nullptr) : nlohmann::json(now - r.gpu.checked_at)}}},
          {"command", place.command.argv},
          {"translated", translated},
          {"launch", place.launch.argv}};
}

int run_attached(const RunPlace& place, Machine& machine, Console& console, const std::string& verb) {
  if (!place.here) machine.wsl.count_start();
  auto status = machine.attached.run(place.launch);
  if (!status) {
    console.err << verb << ": " << status.error().describe() << "\n";
    return exit_code::k_run_refused;
  }
  // wsl.exe's own failure (no such distribution, the service down) is its -1, never a Linux status.
  if (*status < 0) {
    console.err << verb << ": wsl.exe could not start the command in " << visible_text(place.record.distro)
                << " (it said why above); fix: `tfwsl doctor`\n";
    return exit_code::k_run_refused;
  }
  return *status;
}

}  // namespace tfwsl::cli
