#pragma once
// The plan of `tfwsl migrate` (docs/migrate.md): the scan, the decision, the translated requirements,
// the GPU check, the datasets to import with their estimated time, the Windows -> Linux path map,
// and the project's place in ext4. Built without changing anything; `--dry-run --json` prints it
// (docs/schema/migrate-plan.schema.json).

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "common/core/error.hpp"
#include "win/host/gpu_compute_capability.hpp"
#include "win/migrate/container_route.hpp"
#include "win/migrate/gpu_check.hpp"
#include "win/migrate/migrate_facts.hpp"
#include "win/migrate/project_files.hpp"
#include "win/migrate/project_scan.hpp"
#include "win/migrate/requirements_translation.hpp"
#include "win/migrate/tf_decision.hpp"
#include "win/migrate/write_targets.hpp"

namespace tfwsl::migrate {

inline constexpr const char* k_path_map_file = "tfwsl-paths.json";

struct DatasetPlan {
  std::string windows_path;  // the folder: "D:\\data\\flowers"
  std::string linux_path;    // "~/datasets/flowers"
  std::string source;        // what the copy engine reads: the Windows path on Windows, "/mnt/d/data/flowers" elsewhere
  std::uint64_t files = 0;
  std::uint64_t bytes = 0;
  std::uint64_t estimated_seconds = 0;
};

struct WindowsPathPlan {
  WindowsPathRef ref;
  bool exists = false;
  std::string linux_path;  // where the code finds it after the import; empty when it does not exist
};

struct MigratePlan {
  std::string project_name;
  std::string project_linux_path;  // ~/projects/<name>
  std::string project_source;      // the project folder the copy reads, absolute (empty: not known)
  bool force = false;
  ProjectScan scan;
  TfDecision decision;
  Translation translation;
  std::vector<PlannedWrite> writes;  // per translation file: create, keep, replace-ours (refuse is a problem)
  std::vector<DatasetPlan> datasets;
  std::vector<WindowsPathPlan> windows_paths;
  GpuCheck gpu;  // refused, and no container route: its problem is the first of `problems`
  std::optional<ContainerRoutePlan> container;  // the container route, instead of the venv of decision.target
  std::vector<std::string> problems;            // bad input found while planning (a drive the distro does not mount)
};

struct PlanInput {
  ProjectFiles& files;
  std::string project_name;  // the folder's name: "flowers-classifier"
  std::string projects_root = "~/projects";
  std::string datasets_root = "~/datasets";
  bool force = false;
  const MigrateFacts& facts;
  const std::vector<ShippedProfile>& profiles;
  std::string project_source = {};  // the folder, absolute
  std::string profile = {};         // --profile NAME; empty: migrate chooses
  host::GpuReading gpu = {};        // this machine's GPUs as the CLI read them; default: not checked
  // This machine's WSL 2 distributions by name; nothing when not known (distro_choice.hpp).
  std::optional<std::vector<std::string>> installed_distros = std::nullopt;
};

// Errors (nothing changed): a project name that is not one folder name, a projects or datasets
// root that is not a Linux path (checked first: nothing is read or written before), the folder
// does not exist; it has no requirement file at all; a pyproject.toml or Pipfile that is not TOML.
Result<MigratePlan> build_plan(const PlanInput& input);

// The problems of Windows paths on drives the distro does not mount (`mounted`: lower-case letters),
// added to a plan: build_plan adds them when the files know the drives; on Windows, where only the
// target distro can say, the caller asks it once the plan names the distro and adds them after.
void add_unmounted_drive_problems(const std::set<char>& mounted, MigratePlan& plan);

// 0 needs-wsl (or native-ok with --force), 1 native-ok (stopped: say --force), 2 refuse-tf1,
// ambiguous, or a problem in the plan (a GPU no stock wheel runs on is one).
int exit_code_for(const MigratePlan& plan);

// The --dry-run --json object (schema tfwsl.migrate.plan v1, envelope included by the caller).
nlohmann::json to_json(const MigratePlan& plan);

// The generated path map the code can read (tfwsl-paths.json): {"D:\\data\\x": "/home/u/datasets/x"}.
nlohmann::json path_map_json(const MigratePlan& plan);

// The plan for people.
std::string render_text(const MigratePlan& plan);

}  // namespace tfwsl::migrate
