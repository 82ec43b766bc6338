#pragma once
// What `tfwsl code` writes into a migrated project's WSL copy, where VS Code's WSL remote opens it
// (docs/cli.md, "tfwsl code"): .vscode/settings.json gets the venv's interpreter (and the recorded
// environment for its terminals), .vscode/launch.json a debug configuration that runs the project's
// main module with that interpreter and environment. Merged into what is there, never replacing it:
// the user's keys and configurations stay, a key of theirs with another value is kept (and said),
// and a file tfwsl cannot rewrite without losing something (comments, trailing commas: VS Code's
// JSONC) is refused with the keys to add by hand. The text comes from nlohmann's emitter.

#include <optional>
#include <string>
#include <vector>

#include "common/core/error.hpp"
#include "win/migrate/wsl_copy_record.hpp"

namespace tfwsl::migrate {

inline constexpr const char* k_vscode_settings = ".vscode/settings.json";
inline constexpr const char* k_vscode_launch = ".vscode/launch.json";

struct MergedFile {
  std::string relative;              // .vscode/settings.json
  std::optional<std::string> text;   // the new text; nothing when the file already says it all
  std::vector<std::string> changes;  // what is added ("python.defaultInterpreterPath = ...")
  std::vector<std::string> kept;     // the user's values that differ and stay
};

// `existing`: the file's text, nothing when it is not there. Errors: invalid_input naming the file
// for one that is not JSON (with comments or trailing commas: saying so, and what to add by hand),
// not an object, or nested deeper than the JSON bound.
Result<MergedFile> merge_vscode_settings(const std::optional<std::string>& existing, const WslCopyRecord& record);
Result<MergedFile> merge_vscode_launch(const std::optional<std::string>& existing, const WslCopyRecord& record);

// The debug configuration's name: "tfwsl: PROJECT (PROFILE)".
std::string launch_configuration_name(const WslCopyRecord& record);

}  // namespace tfwsl::migrate
