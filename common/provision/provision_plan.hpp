#pragma once
// A profile turned into the ordered steps of `tfwsl provision`: host steps (the CLI, through
// wsl.exe) then distro steps (the agent), each with the packages it installs, the commands its
// apply runs (built by provision_catalogue's builders, so the plan shown is what runs) and what it
// changes. The agent builds the same plan from the same profile and settings and executes it.

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/compat/compat_db.hpp"
#include "common/core/error.hpp"
#include "common/profile/profile.hpp"
#include "common/provision/download_sizes.hpp"
#include "common/provision/provision_catalogue.hpp"
#include "common/util/text_wrap.hpp"

namespace tfwsl::provision {

struct PlanSettings {
  bool inside_wsl = true;       // false: native Linux (the driver is required instead of forbidden; no host steps)
  std::string user;             // the distro user who owns the venv; "" = "the distro's default user"
  std::string home;             // that user's home, for "~" in paths; "" keeps "~" as written
  std::string keyring_url;      // "" = NVIDIA's cuda-keyring for the distro
  std::string pip_find_links;   // "" = PyPI; a folder: pip --no-index --find-links it
  std::string toolkit_key_url;  // "" = NVIDIA's key for its container toolkit repository
  std::string toolkit_repository_url;  // "" = NVIDIA's container toolkit repository
  AptSettings apt;
};

struct PlannedCommand {
  RunsAs as = RunsAs::root;
  std::vector<std::string> argv;
};

struct PlannedStep {
  const StepDefinition* definition = nullptr;
  std::vector<std::string> packages;                        // apt packages, or pip requirements
  std::vector<PlannedCommand> commands;                     // what apply runs, in order (empty: the agent's own work)
  std::vector<std::pair<std::string, std::string>> values;  // what the check compares ("venv", path)
  std::string changes;                                      // what apply changes, in words
  std::optional<DownloadEstimate> download;                 // what apply downloads (plan_downloads.hpp); none: nothing

  const std::string* value(std::string_view key) const;
};

struct ProvisionPlan {
  std::string profile;
  std::string distro;
  bool inside_wsl = true;
  std::string user;
  std::string python;      // "python3.10"
  std::string venv;        // "~/.venvs/tf-2.15" or resolved with PlanSettings::home
  std::string tensorflow;  // "tensorflow[and-cuda]==2.15.*"
  std::string env_file;    // "~/.config/tfwsl/tf-2.15-cuda-12.2.env"
  std::vector<std::pair<std::string, std::string>> env;
  ProfileRoute route = ProfileRoute::wsl;
  std::string image;                       // route container: the pinned reference that is pulled and run
  std::vector<std::string> containerfile;  // route container, built locally: the Dockerfile's lines
  std::vector<std::string> mounts;         // route container: the profile's, HOST:CONTAINER[:ro]
  std::vector<std::string> notes;          // what the plan left out or changed, and why (shown before it runs)
  std::vector<PlannedStep> host_steps;
  std::vector<PlannedStep> distro_steps;

  const PlannedStep* find(std::string_view id) const;
};

// invalid_input when the profile does not validate (its errors, e.g. a `cuda-drivers` apt package),
// when a package name is not one apt may see, or when the profile lacks what a step needs.
Result<ProvisionPlan> build_provision_plan(const Profile& profile, const CompatDb& db, const PlanSettings& settings);

// What `tfwsl provision` installs before a key or keyring is fetched over HTTPS, on either route
// (NVIDIA's guides use wget or curl; curl is the same job and also fetches file:// URLs).
const std::vector<std::string>& prerequisite_packages();

// A distro step that installs apt packages (`apt-get update`, then `apt-get install` as root), each
// name first held to the one package rule: the venv route's steps and the container route's.
Status add_apt_install_step(ProvisionPlan& plan, std::string_view id, std::vector<std::string> packages,
                            const PlanSettings& settings, std::string changes);

nlohmann::json to_json(const PlannedStep& step);
nlohmann::json plan_to_json(const ProvisionPlan& plan);
// The plan for people: each step numbered, with its packages, its commands, what it downloads and
// what it changes; then the downloads in all.
std::string render_plan(const ProvisionPlan& plan);
// The plan in one line, for a run already consented to (--yes): what it sets up, how many steps,
// what it downloads, and `dry_run_command` (as printed for its shell), which shows the whole plan;
// the run's progress follows it.
std::string render_plan_summary(const ProvisionPlan& plan, std::string_view dry_run_command);
// The commands render_plan prints, each for the shell it names: a line too long for the terminal
// continues between their arguments (common/cli/fitted_output.hpp).
std::vector<PrintedCommand> printed_commands(const ProvisionPlan& plan);

// "~/x" -> home + "/x" (home empty: unchanged).
std::string expand_home(const std::string& path, const std::string& home);

}  // namespace tfwsl::provision
