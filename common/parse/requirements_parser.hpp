#pragma once
// The dependency lists a Python project declares, in the formats users paste: requirements.txt
// (pip options, -r includes, markers, inline comments, hashes), conda environment.yml (conda
// specs with spaces, "=" pins, a "pip:" subsection), pyproject.toml (PEP 621 arrays and Poetry
// tables), setup.cfg (install_requires / extras_require), setup.py's quoted lists (read, never run)
// and Pipfile ([packages], [dev-packages], [requires] python_version). Text in,
// requirements out; what they mean (which TF releases they allow) is the diagnosis's job.

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tfwsl::parse {

enum class RequirementsFormat {
  requirements_txt,
  conda_environment,
  pyproject_pep621,
  poetry,
  setup_cfg,
  setup_py,
  pipfile
};

const char* to_string(RequirementsFormat format);

struct DeclaredRequirement {
  std::string package;              // lower-cased as written: "tensorflow-gpu", "tf-nightly"
  std::vector<std::string> extras;  // lower-cased: {"and-cuda"}
  std::string spec;                 // as written, spaces removed: ">=2.12,<2.16", "=2.10" (conda), "^2.15" (poetry)
  std::string marker;               // after ';': "python_version < '3.8'"
  bool conda = false;               // a conda package (environment.yml, outside its pip: list)
  int line = 0;                     // 1-based line of the cleaned text
  // Where it is declared when not installed by default: the extra ("tensorflow" in extras_require,
  // [project.optional-dependencies]), the group ("dev", a Poetry group, "build-system"); empty for
  // what a plain install of the project brings.
  std::string group;
  bool keyed = false;  // written as a TOML `name = spec` entry (Poetry, Pipfile), not a PEP 508 string
  std::string build;   // conda's build string from a `conda list` row's third column ("gpu_py36h3991807_0")
  std::string url;     // a direct reference's ("name @ URL"): where pip takes the package from
};

struct RequirementsResult {
  RequirementsFormat format = RequirementsFormat::requirements_txt;
  std::vector<DeclaredRequirement> requirements;
  std::vector<std::string> includes;  // "-r other.txt" / "-c constraints.txt" targets as written (a caller with
                                      // the files follows them: win/migrate/project_scan.hpp)
  std::vector<std::string> constraint_includes;  // those of them named by -c: they limit versions, require nothing
  // The Python the project declares: requires-python, Poetry's python, conda's python=3.11,
  // setup.py's python_requires (package "python", spec as written).
  std::optional<DeclaredRequirement> python;
  // What the reader saw but could not read, each naming its line ("setup.py:40 install_requires is
  // computed (the result of get_requirements()): not read").
  std::vector<std::string> notes;
};

// One PEP 508 requirement ("tensorflow[and-cuda]>=2.14; python_version<'3.12'") or conda spec
// ("python =3.10", "cudatoolkit<12", "tensorflow=2.6.0=cuda112py38_0"); nothing for what is not one.
std::optional<DeclaredRequirement> parse_requirement(std::string_view text, bool conda, int line);

RequirementsResult parse_requirements(std::string_view text);

// The same for a file whose format its name already says (requirements*.txt, environment.yml,
// pyproject.toml, setup.cfg, setup.py, Pipfile): no guessing from the content. A pyproject.toml
// with [tool.poetry] tables is read as Poetry whichever format is passed for it.
RequirementsResult parse_requirements(std::string_view text, RequirementsFormat format);

// The distributions that are TensorFlow itself (tensorflow, tensorflow-gpu/-cpu/-intel/-macos,
// tf-nightly*, ...), by PEP 503 name.
bool is_tensorflow_distribution(std::string_view normalized_name);

// Confidence in [0, 1] that the text is one of the formats above.
double looks_like_requirements(std::string_view text);

// The TensorFlow requirement (tensorflow, tensorflow-gpu/-cpu/-intel/-macos, tf-nightly*, ...), the
// first one declared, preferring pip over conda; nothing when the project does not name one.
const DeclaredRequirement* find_tensorflow(const RequirementsResult& result);

// {"format": ..., "tensorflow": {"package", "spec", "build"?}, "tensorflow_extras": [...], "packages": [...]};
// a conda `=2.18.1=cpu_py311h18e2dce_0` is spec "==2.18.1" there, its build string apart.
nlohmann::json to_json(const RequirementsResult& result);

}  // namespace tfwsl::parse
