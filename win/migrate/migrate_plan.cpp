#include "win/migrate/migrate_plan.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "common/compat/compat_db.hpp"
#include "common/util/ascii.hpp"
#include "common/wsl/drive_path.hpp"
#include "win/migrate/distro_choice.hpp"

namespace tfwsl::migrate {
namespace {

std::string last_component(const std::string& windows_path) {
  auto slash = windows_path.find_last_of('\\');
  std::string name = slash == std::string::npos ? windows_path : windows_path.substr(slash + 1);
  if (name.empty() || name.back() == ':') name = "data";
  return name;
}

bool is_inside(const std::string& path, const std::string& folder) {
  const std::string p = ascii_lower(path);
  const std::string f = ascii_lower(folder);
  return p == f || (p.size() > f.size() && p.starts_with(f) && p[f.size()] == '\\');
}

std::string parent_of(const std::string& windows_path) {
  auto slash = windows_path.find_last_of('\\');
  return slash == std::string::npos || slash <= 2 ? windows_path.substr(0, 3) : windows_path.substr(0, slash);
}

// The folders to import: each existing folder the code names (a named file: its folder), the
// outermost of nested ones, each once.
void plan_datasets(const PlanInput& in, MigratePlan& plan) {
  std::map<std::string, TreeStats> folders;  // by lower-cased path
  std::map<std::string, std::string> spelled;
  for (auto& wp : plan.windows_paths) {
    auto stats = in.files.windows_tree(wp.ref.path);
    wp.exists = stats.has_value();
    if (!stats) continue;
    std::string folder = stats->is_directory ? wp.ref.path : parent_of(wp.ref.path);
    if (!stats->is_directory) stats = in.files.windows_tree(folder);
    if (!stats || folder.size() <= 3) continue;  // a whole drive is not a dataset
    folders.emplace(ascii_lower(folder), *stats);
    spelled.emplace(ascii_lower(folder), folder);
  }
  std::vector<std::string> kept;
  for (const auto& entry : folders) {      // sorted: a parent comes before what is inside it
    const std::string& key = entry.first;  // a named copy: clang 14 cannot capture a structured binding
    if (std::any_of(kept.begin(), kept.end(), [&](const std::string& k) { return is_inside(key, k); })) continue;
    kept.push_back(key);
  }
  std::map<std::string, int> names;
  for (const auto& key : kept) {
    const auto& stats = folders[key];
    std::string name = last_component(spelled[key]);
    int n = ++names[ascii_lower(name)];
    if (n > 1) name += fmt::format("-{}", n);
    // The copy reads the folder where this machine sees it (a drive mount on Linux), never the
    // Windows spelling, which only Windows can open.
    auto source = in.files.copy_source(spelled[key]);
    if (!source) {
      plan.problems.push_back(fmt::format(
          "{} cannot be reached from here to be copied: run migrate on Windows, or mount its drive", spelled[key]));
      continue;
    }
    plan.datasets.push_back({spelled[key], in.datasets_root + "/" + name, *source, stats.files, stats.bytes,
                             in.facts.estimate_seconds(stats.files, stats.bytes)});
  }
  for (auto& wp : plan.windows_paths) {
    if (!wp.exists) continue;
    for (const auto& ds : plan.datasets) {
      if (!is_inside(wp.ref.path, ds.windows_path)) continue;
      std::string rest = wp.ref.path.substr(ds.windows_path.size());
      std::replace(rest.begin(), rest.end(), '\\', '/');
      wp.linux_path = ds.linux_path + rest;
    }
  }
}

}  // namespace

void add_unmounted_drive_problems(const std::set<char>& mounted, MigratePlan& plan) {
  std::set<char> reported;
  for (const auto& wp : plan.windows_paths) {
    auto letter = wsl::drive_letter_of(wp.ref.path);
    if (!letter || mounted.contains(ascii_lower(*letter)) || !reported.insert(ascii_lower(*letter)).second) continue;
    plan.problems.push_back(
        fmt::format("{} ({}:{}) is on drive {}:, which the distro does not mount: mount it (wsl.conf [automount], "
                    "or `sudo mount -t drvfs {}: /mnt/{}`) or change the path, then run migrate again",
                    wp.ref.path, wp.ref.file, wp.ref.line, static_cast<char>(ascii_upper(*letter)),
                    static_cast<char>(ascii_upper(*letter)), ascii_lower(*letter)));
  }
}

namespace {

// --name is one folder name; --to and --data-to are Linux folders ("~/x" or "/x"): checked before
// anything is read or written, so a name such as "../../escape" changes nothing anywhere.
Status check_places(const PlanInput& in) {
  const std::string& name = in.project_name;
  if (name.empty() || name == "." || name == ".." || name.find_first_of(std::string("/\\\0", 3)) != std::string::npos ||
      name.front() == '-')
    return make_error(ErrorCode::invalid_input,
                      fmt::format("--name '{}' must be one folder name (no '/', '\\', '.' or '..', "
                                  "not starting with '-'); nothing was changed",
                                  name));
  for (const auto& [option, root] : {std::pair{"--to", in.projects_root}, std::pair{"--data-to", in.datasets_root}}) {
    const bool linux_path = root == "~" || root.starts_with("~/") || root.starts_with("/");
    if (!linux_path || root.find('\\') != std::string::npos || root.find("/../") != std::string::npos ||
        root.ends_with("/.."))
      return make_error(ErrorCode::invalid_input,
                        fmt::format("{} '{}' must be a Linux folder (~/projects or /srv/projects, "
                                    "without '..'); nothing was changed",
                                    option, root));
  }
  return {};
}

}  // namespace

Result<MigratePlan> build_plan(const PlanInput& in) {
  TFWSL_TRY_STATUS(check_places(in));
  TFWSL_TRY(scan, scan_project(in.files, in.facts));
  if (scan.requirements.empty()) {
    return make_error(
        ErrorCode::invalid_input,
        "the project has no requirement file (requirements*.txt, environment.yml, pyproject.toml, setup.cfg, "
        "setup.py or Pipfile): write one that names TensorFlow (e.g. `pip freeze > requirements.txt` in the "
        "project's Windows venv) and run migrate again; nothing was changed");
  }
  MigratePlan plan;
  plan.project_name = in.project_name;
  plan.project_linux_path = in.projects_root + "/" + in.project_name;
  plan.project_source = in.project_source;
  plan.force = in.force;
  plan.scan = std::move(scan);
  // --profile naming the container route leaves the venv's target to the pins (for the notes).
  const bool asked_container = is_container_profile(in.profile);
  plan.decision = decide({plan.scan, in.profiles, in.facts, asked_container ? std::string() : in.profile});
  choose_distro(in.installed_distros, plan.scan, builtin_compat_db(), plan.decision);
  plan.gpu = check_gpu(in.gpu, plan.decision.target);
  const Decision d = plan.decision.decision;
  if (d == Decision::needs_wsl || d == Decision::native_ok)
    plan.container = plan_container_route(in.profile, plan.gpu, plan.decision);
  if (plan.gpu.refused() && !plan.container) plan.problems.push_back(gpu_problem(plan.gpu));
  if (plan.container) plan.decision.target = container_target(*plan.container);  // what apply provisions
  plan.translation = translate_requirements(plan.scan, plan.decision, in.facts);
  // The container route installs nothing with pip: the image brings TensorFlow, no file is written.
  WritePlan writes = plan.container ? WritePlan{} : plan_requirement_writes(in.files, plan.translation);
  plan.writes = std::move(writes.writes);
  plan.scan.notes.insert(plan.scan.notes.end(), writes.notes.begin(), writes.notes.end());
  plan.problems.insert(plan.problems.end(), writes.problems.begin(), writes.problems.end());
  for (const auto& ref : plan.scan.windows_paths) plan.windows_paths.push_back({ref, false, {}});
  plan_datasets(in, plan);
  if (const auto mounted = in.files.mounted_drives()) add_unmounted_drive_problems(*mounted, plan);
  return plan;
}

int exit_code_for(const MigratePlan& plan) {
  if (!plan.problems.empty()) return 2;
  if (plan.container) return 0;  // a GPU native Windows' TF cannot run either, or asked for
  switch (plan.decision.decision) {
    case Decision::needs_wsl:
      return 0;
    case Decision::native_ok:
      return plan.force ? 0 : 1;
    case Decision::refuse_tf1:
    case Decision::ambiguous:
      return 2;
  }
  return 2;
}

nlohmann::json path_map_json(const MigratePlan& plan) {
  nlohmann::json paths = nlohmann::json::object();
  for (const auto& wp : plan.windows_paths) {
    if (!wp.linux_path.empty()) paths[wp.ref.path] = wp.linux_path;
  }
  return paths;
}

}  // namespace tfwsl::migrate
