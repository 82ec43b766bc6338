#pragma once
// The decision of `tfwsl migrate` (docs/migrate.md, "How the decision is made"): from the
// TensorFlow pins of every requirement file, the project's Python and its Keras use, against the
// shipped WSL profiles and the compatibility data: native-ok (every allowed release is <= 2.10:
// native Windows still has the GPU), refuse-tf1, ambiguous (the files disagree, or allow nothing a
// profile ships), or needs-wsl with the target profile.

#include <optional>
#include <string>
#include <vector>

#include "common/compat/compat_db.hpp"
#include "common/version/version.hpp"
#include "win/migrate/migrate_facts.hpp"
#include "win/migrate/project_scan.hpp"

namespace tfwsl::migrate {

enum class Decision { native_ok, needs_wsl, refuse_tf1, ambiguous };
const char* to_string(Decision decision);  // "native-ok", "needs-wsl", "refuse-tf1", "ambiguous"

struct ShippedProfile {
  std::string name;    // tf-2.15-cuda-12.2
  Version series;      // 2.15
  std::string python;  // the venv's Python: "3.10"
  std::string distro;  // Ubuntu-22.04
  std::string venv;    // ~/.venvs/tf-2.15
  // The distro and Python are an installed distro's of the user's instead of the profile's own
  // (distro_choice.hpp): the project's tfwsl.yaml and the provisioning set them over the profile.
  bool user_distro = false;
};

// The built-in WSL profiles (profiles/tf-*.yaml), oldest series first.
std::vector<ShippedProfile> shipped_wsl_profiles();

struct TfPin {
  std::string file;
  int line = 0;
  std::string package;  // as written, lower case: tensorflow-gpu
  std::string spec;     // as written: ">=2.7.0,<2.11.0", "=2.6.0=cuda112py38_0"
  bool conda = false;
  bool and_cuda = false;
  std::string group;               // the extra or group it is declared in; empty: a plain install brings it
  bool conda_environment = false;  // from a conda environment file: one whole environment of its own
  bool constraint = false;         // from a constraints file: limits the versions, installs nothing
  std::string text() const;        // "tensorflow-gpu>=2.7.0,<2.11.0 (requirements.txt:3)"
};

struct TfDecision {
  Decision decision = Decision::ambiguous;
  std::vector<std::string> reasons;  // one line each: which file and pin led here
  std::vector<TfPin> pins;
  std::optional<ShippedProfile> target;  // the profile migrate installs (for native-ok: with --force)
  std::optional<std::string> python_project;
  std::optional<bool> python_ok;
  bool legacy_keras = false;         // tf-keras + TF_USE_LEGACY_KERAS=1
  std::vector<std::string> choices;  // ambiguous: what the user can choose
  // The spec as written: the pins' specs joined with ',' ("" unpinned); several files: each once.
  std::string spec_as_written() const;
};

struct DecideInput {
  const ProjectScan& scan;
  const std::vector<ShippedProfile>& profiles;
  const MigrateFacts& facts;
  std::string profile;  // --profile NAME: the target asked for (refused when the pins exclude it); empty: chosen
};

TfDecision decide(const DecideInput& input);

// Whether the project's declared Python allows a venv of `python` ("3.10").
bool python_fits(const PythonDeclaration& python, const std::string& profile_python);

// Whether pip skips a requirement with this PEP 508 marker in every venv a shipped WSL profile makes
// (Linux x86_64, each profile's Python): "sys_platform == 'win32'", platform_system=="Darwin",
// "python_version < '3.9'". The one marker evaluator decides (common/provision/environment_marker);
// a marker it cannot evaluate keeps the requirement.
bool marker_excludes_linux(std::string_view marker);

}  // namespace tfwsl::migrate
