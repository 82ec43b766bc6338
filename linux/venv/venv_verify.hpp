#pragma once
// Whether a venv runs TensorFlow on the GPU and, optionally, imports the project's module: the
// agent's TensorFlow probe with the venv's Python (linux/checks), judged by the one judge
// (common/judge, its tf.* checks), then `python -c "import NAME"` in the project folder. Nothing
// is written into the project (PYTHONDONTWRITEBYTECODE=1).

#include <chrono>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "common/check/check.hpp"
#include "common/core/error.hpp"
#include "common/process/process_runner.hpp"
#include "linux/checks/linux_facts.hpp"

namespace tfwsl::venv {

struct VerifySettings {
  std::filesystem::path venv;
  std::filesystem::path project;
  std::string module;                      // empty: no import check
  std::string script;                      // or a script run by its path, relative to the project (train-model.py)
  std::map<std::string, std::string> env;  // added to the inherited environment of both children
  std::chrono::seconds timeout{300};       // for the probe, and again for the import
  ProcessRunner* processes = nullptr;      // the machine's, which both children's runner wraps (required)
};

struct ImportCheck {
  std::string module;  // the module, or the script's path
  bool ok = false;
  std::vector<std::string> output;  // the last lines it printed (the traceback's end)
};

struct VerifyResult {
  linux_checks::TfFacts tf;
  std::vector<CheckResult> checks;  // the judge's tf.* verdicts
  std::optional<ImportCheck> import;
  bool ok = false;
};

// "K=V" -> (K, V); an error naming the text when it is not one.
Result<std::pair<std::string, std::string>> parse_env_assignment(const std::string& text);

// A dotted Python module name ("train", "pkg.sub"): the only thing put into the import's code.
bool is_module_name(const std::string& name);

// A script path inside the project: relative, '/'-separated, no '..' part, ending in ".py".
bool is_project_script(const std::string& path);

// Errors: a project folder that is missing, a module name that is not one, a script path that
// leaves the project, both given, a profile that does not load.
Result<VerifyResult> verify_venv(const VerifySettings& settings);

}  // namespace tfwsl::venv
