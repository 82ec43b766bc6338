#pragma once
// Where a migrated project runs (docs/cli.md, "tfwsl run"): .tfwsl/wsl-copy.json, written by
// migrate's last step beside the project on Windows and in its WSL copy, read by `tfwsl run`,
// `shell` and `code` to find the distro, the copy, the venv and its environment without asking WSL.
// The .tfwsl folder is tfwsl's own in both places (the project copy leaves it out), and the record
// is replaced only where what is there parses as one (a user's file of that name is refused).

#include <cstdint>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "common/core/error.hpp"
#include "win/migrate/apply_plan.hpp"

namespace tfwsl::migrate {

inline constexpr const char* k_wsl_copy_record = ".tfwsl/wsl-copy.json";
inline constexpr const char* k_wsl_copy_schema = "tfwsl.wsl-copy";
inline constexpr int k_wsl_copy_version = 1;
// A record is a few hundred bytes; a larger file is not one of ours.
inline constexpr std::uintmax_t k_wsl_copy_max_bytes = 1024 * 1024;

// The verdict of migrate's GPU check (the `check` step), kept so a run judges the environment
// without importing TensorFlow each time; `checked_at` in seconds since 1970 (0: never checked).
struct RecordedGpuCheck {
  bool ok = false;
  std::string summary;
  std::int64_t checked_at = 0;
  bool operator==(const RecordedGpuCheck&) const = default;
};

struct WslCopyRecord {
  std::string windows_path;  // the project folder migrate read ("C:\\work\\flowers"; "/mnt/c/..." natively)
  std::string distro;
  std::string linux_path;  // the WSL copy, absolute
  std::string profile;
  std::string venv;  // absolute
  std::string python;
  std::map<std::string, std::string> env;       // set in every run (TF_USE_LEGACY_KERAS)
  std::map<std::string, std::string> path_map;  // tfwsl-paths.json: Windows path -> absolute Linux path
  MainEntry main;                               // what migrate's check imported (an editor's debug target)
  RecordedGpuCheck gpu;
  bool operator==(const WslCopyRecord& other) const {
    return windows_path == other.windows_path && distro == other.distro && linux_path == other.linux_path &&
           profile == other.profile && venv == other.venv && python == other.python && env == other.env &&
           path_map == other.path_map && main.module == other.main.module && main.script == other.main.script &&
           gpu == other.gpu;
  }
};

// True when `now` says what `before` said, but for when the GPU check ran: a re-run that changes
// nothing else leaves the record as it is (migrate's second run changes nothing).
bool same_but_check_time(const WslCopyRecord& before, const WslCopyRecord& now);

// The project's folder name in WSL (the copy's last component): what editors and Jupyter show.
std::string project_folder_name(const WslCopyRecord& record);

// The wall clock as records keep it: seconds since 1970.
std::int64_t seconds_now();

// The record to keep when `before` is there: a GPU check that did not run this time (an earlier
// run's, re-checked) keeps the verdict and time `before` has.
WslCopyRecord updated_record(const WslCopyRecord& before, WslCopyRecord now);

// The record of a plan resolved under the distro user's home (with_home), after its steps ran (the
// GPU verdict from a `check` step that ran now).
WslCopyRecord wsl_copy_record(const MigratePlan& resolved, const std::string& home,
                              const std::vector<StepResult>& steps, std::int64_t now);

// Written by nlohmann's emitter, with the schema's name and version.
std::string wsl_copy_record_text(const WslCopyRecord& record);

// The record in `text` (read from `name`, which errors name). Errors: invalid_input for a file that
// is not JSON, is nested deeper than the JSON bound, is another schema or lacks the distro, the
// copy or the venv, each saying to run migrate again.
Result<WslCopyRecord> parse_wsl_copy_record(std::string_view text, const std::string& name);

// The record beside the project on this machine (`project`/.tfwsl/wsl-copy.json): .tfwsl made when
// it is not there, the file replaced atomically (updated_record over the one there; left alone when that
// is the same but for the check time). Refused by name (invalid_input):
// a .tfwsl that is a link, a junction or not a folder, and a file of that name that is not a record of ours.
Status write_local_wsl_copy_record(const std::filesystem::path& project, const WslCopyRecord& record);

}  // namespace tfwsl::migrate
