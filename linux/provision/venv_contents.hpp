#pragma once
// What a venv holds, read from its files (pyvenv.cfg, site-packages/*.dist-info/METADATA) without
// starting Python or pip: the checks of a provisioned distro start no process.

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "common/version/version_spec.hpp"

namespace tfwsl::provision {

struct InstalledDistribution {
  std::string name;  // normalized: lower case, '-' for runs of "-_."
  std::string version;
  std::filesystem::path dist_info;
};

// "3.11.2" from pyvenv.cfg's version (or version_info) line; nothing when it is not a venv.
std::optional<std::string> venv_python_version(const std::filesystem::path& venv);

// The site-packages folders of the venv (lib/python3.*/site-packages).
std::vector<std::filesystem::path> venv_site_packages(const std::filesystem::path& venv);

std::vector<InstalledDistribution> venv_distributions(const std::filesystem::path& venv);

// The names an extra requires, from METADATA's "Requires-Dist: X; extra == 'and-cuda'" lines.
std::vector<std::string> extra_requirements(const std::filesystem::path& dist_info, const std::string& extra);

// Whether the venv meets one requirement, and if not, in which way (callers decide by `state`,
// never by the words of `reason`).
struct RequirementState {
  enum class State { met, not_installed, other_version, extra_missing };
  State state = State::met;
  std::string reason;  // empty when met: "numpy is not installed", "tensorflow 2.15.1 does not match ==2.16.*"
  bool met() const { return state == State::met; }
};

// The requirement's marker is not evaluated here (the caller knows the environment).
RequirementState check_installed(const std::vector<InstalledDistribution>& installed, const Requirement& requirement);

// "" when `requirement` ("tensorflow[and-cuda]==2.15.*", "numpy<2") is met by the venv, else why not.
std::string unmet_requirement(const std::vector<InstalledDistribution>& installed, const std::string& requirement);

}  // namespace tfwsl::provision
