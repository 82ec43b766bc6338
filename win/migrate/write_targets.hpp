#pragma once
// Where the translated requirement files go beside the user's, decided at plan time so that the dry
// run shows it (docs/migrate.md, "Which files migrate may replace"): each target is created when
// nothing is there, kept when it already holds the same translation, replaced when migrate can
// prove it wrote it (ownership_mark.hpp), and otherwise left alone: the translation then goes to
// the `.tfwsl.` name instead ("requirements.tfwsl.txt"), or, when that is taken too or another
// translated file includes it by name, the plan is refused naming the file.

#include <string>
#include <vector>

#include "win/migrate/project_files.hpp"
#include "win/migrate/requirements_translation.hpp"

namespace tfwsl::migrate {

enum class WriteAction { create, keep, replace_ours, refuse };
const char* to_string(WriteAction action);  // "create", "keep", "replace-ours", "refuse"

struct PlannedWrite {
  std::string target;
  WriteAction action = WriteAction::create;
};

struct WritePlan {
  std::vector<PlannedWrite> writes;   // one per translation file, in order
  std::vector<std::string> notes;     // "requirements.wsl.txt exists and was not written by tfwsl: using ..."
  std::vector<std::string> problems;  // a refusal naming the file
};

// Decides each file's target and action; retargets `translation.files[i].target` where the
// `.wsl.` name is the user's.
WritePlan plan_requirement_writes(ProjectFiles& files, Translation& translation);

// "requirements.wsl.txt" -> "requirements.tfwsl.txt", "Pipfile.wsl" -> "Pipfile.tfwsl".
std::string alternative_target(const std::string& target);

}  // namespace tfwsl::migrate
