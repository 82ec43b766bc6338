#pragma once
// Whether a venv already holds what requirements files and specs ask for, read from its files
// (linux/provision/venv_contents.hpp) without starting a process: a second `tfwsl migrate` on a
// ready venv runs no pip at all. Markers are evaluated for this machine and the venv's Python;
// what cannot be decided here (a URL, a path, an editable, a marker naming another variable)
// counts as unmet, so pip decides it.

#include <filesystem>
#include <string>
#include <vector>

#include "common/core/error.hpp"
#include "common/parse/pip_requirements_file.hpp"

namespace tfwsl::venv {

// "~/x" -> "$HOME/x"; anything else as it is.
std::string expand_home(const std::string& path);

// Ok when PATH/bin/python and PATH/pyvenv.cfg exist; else "PATH is not a venv: run tfwsl provision first".
Status require_venv(const std::filesystem::path& venv);

struct UnmetRequirement {
  std::string requirement;  // as written: "numpy>=1.26"
  std::string source;       // "requirements.txt:3", or "--package"
  std::string reason;       // "numpy is not installed"
  // What only pip can decide (a URL, a path, an editable, a marker naming another variable): pip is
  // run for it, and once pip succeeded it is not held against the re-check.
  bool pip_decides = false;
};

struct RequirementsCheck {
  int requirements = 0;  // requirement lines and --package specs (constraints not counted)
  std::vector<UnmetRequirement> unmet;
  std::vector<std::string> files;  // every requirements file read, includes too

  // The unmet ones this check decided itself (after a successful pip, these are the failures).
  std::vector<UnmetRequirement> decided_unmet() const;
};

// The files (each may include others) and the specs, against the venv. Errors: a requirements file
// that is missing or unreadable, naming it.
Result<RequirementsCheck> check_venv_requirements(const std::filesystem::path& venv,
                                                  const std::vector<std::string>& files,
                                                  const std::vector<std::string>& packages);

}  // namespace tfwsl::venv
