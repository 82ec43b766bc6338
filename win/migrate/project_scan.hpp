#pragma once
// What a project folder declares and uses, read statically (nothing is run): its requirement files
// (requirements*.txt with their -r / -c files followed, environment.yml, pyproject.toml, setup.cfg,
// setup.py, Pipfile), the Python it names (.python-version, runtime.txt, or the requirement files'
// own python), its TensorFlow and Keras imports and Keras-2-only APIs, and the Windows absolute
// paths in its code and configs (docs/migrate.md, "What is scanned").

#include <optional>
#include <string>
#include <vector>

#include "common/core/error.hpp"
#include "common/parse/requirements_parser.hpp"
#include "win/migrate/migrate_facts.hpp"
#include "win/migrate/project_files.hpp"

namespace tfwsl::migrate {

struct RequirementsFile {
  std::string path;  // relative to the project: "requirements/nvidia.txt"
  std::string text;  // as read
  parse::RequirementsResult parsed;
  std::string included_by;  // the file whose -r / -c named it; empty when found by its name
  // A pip constraints file (named constraints*.txt, or reached by -c): it limits the versions of what
  // is required elsewhere and requires nothing itself (pip's "Constraints Files"), so its pins are
  // not what the project installs.
  bool constraints = false;
};

struct PythonDeclaration {
  std::string spec;    // "3.10", ">=3.9,<3.12"
  std::string file;    // ".python-version", "pyproject.toml"
  bool conda = false;  // read a bare version as a prefix ("3.10" = 3.10.*), as version files and conda mean it
};

struct CodeUse {
  std::string file;
  int line = 0;
  std::string what;  // a Keras API's description, or the path as written
};

struct WindowsPathRef {
  std::string path;  // with backslashes, escapes undone: "D:\\data\\x"
  std::string file;
  int line = 0;
};

struct ProjectScan {
  std::vector<RequirementsFile> requirements;
  std::vector<std::string>
      notes;  // what the scan could not follow ("-r base.txt (requirements.txt:1) is not in the project")
  std::optional<PythonDeclaration> python;
  bool imports_tensorflow = false;
  std::vector<std::string> tensorflow_modules;  // the .py files that import tensorflow, in path order
  bool imports_keras = false;                   // `import keras` / `from keras ...` (standalone Keras)
  bool uses_tf_keras = false;                   // tf.keras / tensorflow.keras
  std::vector<CodeUse> keras2_apis;
  std::vector<WindowsPathRef> windows_paths;
};

// Errors: the project folder does not exist (not_found); a pyproject.toml or Pipfile that is not
// TOML (parse, naming the file and line).
Result<ProjectScan> scan_project(ProjectFiles& files, const MigrateFacts& facts);

// The project file an include names: ("reqs/a.txt", "../b.txt") -> "b.txt"; nothing when it climbs
// out of the project.
std::optional<std::string> resolve_include(std::string_view from, std::string_view include);

// The format a requirement file's name says; nothing for other files.
std::optional<parse::RequirementsFormat> requirements_format_of(std::string_view relative_path);

}  // namespace tfwsl::migrate
