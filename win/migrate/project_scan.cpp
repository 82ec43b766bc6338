#include "win/migrate/project_scan.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "common/parse/toml_requirements.hpp"
#include "common/util/ascii.hpp"
#include "common/util/nesting_depth.hpp"
#include "common/util/yaml_document.hpp"
#include "win/migrate/code_scan.hpp"

namespace tfwsl::migrate {
namespace {

constexpr int k_max_depth = 6;                      // project folders deeper than this are data, not code
constexpr std::size_t k_max_text_bytes = 4u << 20;  // a requirement file or source file is not megabytes
constexpr std::size_t k_max_includes = 64;          // -r chains that long are a loop in disguise

std::string_view file_name_of(std::string_view path) {
  auto slash = path.find_last_of('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

std::string folder_of(std::string_view path) {
  auto slash = path.find_last_of('/');
  return slash == std::string_view::npos ? std::string() : std::string(path.substr(0, slash + 1));
}

// "a/b/../c.txt" -> "a/c.txt"; nothing when it climbs out of the project.
std::optional<std::string> normalize_relative(const std::string& path) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (start <= path.size()) {
    auto slash = path.find_first_of("/\\", start);
    if (slash == std::string::npos) slash = path.size();
    std::string part = path.substr(start, slash - start);
    if (part == "..") {
      if (parts.empty()) return std::nullopt;
      parts.pop_back();
    } else if (!part.empty() && part != ".") {
      parts.push_back(part);
    }
    start = slash + 1;
  }
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : "/") + p;
  return out;
}

bool is_root_file(std::string_view path) { return path.find('/') == std::string_view::npos; }

// A YAML file nested too deep to read, by name and line: it may be the environment the project runs
// on (skipped, it made migrate say that the project had no requirement file).
tl::unexpected<Error> too_deep(const std::string& path, std::size_t line, const std::string& problem) {
  return make_error(ErrorCode::invalid_input, fmt::format("{}:{}: {}; flatten it there (or remove it) and run migrate "
                                                          "again; nothing was changed",
                                                          path, line, problem));
}

// A conda environment file: a mapping whose `dependencies` is a list (of match specs and at most a
// `pip:` list), as `conda env create -f` reads it; a conda-build recipe (meta.yaml: `requirements:`),
// a CI workflow or a docker-compose file is not one.
Result<bool> looks_like_conda_environment(const std::string& path, const std::string& text) {
  const auto loaded = load_yaml(text);
  if (!loaded && loaded.error().too_deep) return too_deep(path, loaded.error().line, loaded.error().message);
  if (!loaded) return false;
  const YAML::Node& root = *loaded;
  if (!root.IsMap() || !root["dependencies"] || !root["dependencies"].IsSequence()) return false;
  for (const auto& item : root["dependencies"]) {
    if (!(item.IsScalar() || (item.IsMap() && item["pip"]))) return false;
  }
  return root["dependencies"].size() > 0;
}

bool is_conda_file_name(const std::string& path) {
  const std::string name = ascii_lower(file_name_of(path));
  return name == "environment.yml" || name == "environment.yaml";
}

// environment.yml is conda's own name for one: read line by line, but bounded as any YAML is.
Result<bool> is_conda_environment(const std::string& path, const std::string& text) {
  if (!is_conda_file_name(path)) return looks_like_conda_environment(path, text);
  const NestingDepth found = deepest_nesting(text, NestingSyntax::yaml);
  if (found.depth > k_nesting_limit) return too_deep(path, found.line, nesting_problem(NestingSyntax::yaml));
  return true;
}

Status add_requirements_file(ProjectFiles& files, const std::string& path, parse::RequirementsFormat format,
                             const std::string& included_by, ProjectScan& scan, bool constraints = false) {
  const bool conda = format == parse::RequirementsFormat::conda_environment;
  auto read = files.read(path, k_max_text_bytes);
  // Any YAML file but conda's own names is only a candidate: one that cannot be read is not the
  // project's. environment.yml that cannot be read (too large) is named, as a requirements.txt is.
  if (!read && conda && !is_conda_file_name(path)) return {};
  TFWSL_TRY(text, std::move(read));
  if (conda) {
    TFWSL_TRY(environment, is_conda_environment(path, text));
    if (!environment) return {};
  }
  parse::RequirementsResult parsed;
  const bool toml =
      format == parse::RequirementsFormat::pyproject_pep621 || format == parse::RequirementsFormat::pipfile;
  if (toml) {
    auto toml_read = parse::read_toml_requirements(text, format);
    if (toml_read.error) {
      return make_error(
          ErrorCode::parse,
          fmt::format("{}:{}:{}: cannot be read as TOML ({}): fix it (or remove it) and run migrate again; "
                      "nothing was changed",
                      path, toml_read.error_line, toml_read.error_column, *toml_read.error));
    }
    parsed = std::move(toml_read.result);
  } else {
    parsed = parse::parse_requirements(text, format);
  }
  for (const auto& note : parsed.notes)
    scan.notes.push_back(note.starts_with("setup.py:") ? path + note.substr(8) : note);
  constraints = constraints || ascii_lower(file_name_of(path)).starts_with("constraints");
  if (constraints && !parsed.requirements.empty())
    scan.notes.push_back(
        fmt::format("{} is a constraints file: it limits versions and installs nothing, so its "
                    "pins are not what the project installs",
                    path));
  scan.requirements.push_back({path, text, std::move(parsed), included_by, constraints});
  return {};
}

// Follows -r / -c from each requirements file found so far, breadth first, each file once.
void follow_includes(ProjectFiles& files, const std::set<std::string>& present, ProjectScan& scan) {
  std::set<std::string> seen;
  for (const auto& f : scan.requirements) seen.insert(f.path);
  for (std::size_t i = 0; i < scan.requirements.size() && seen.size() < k_max_includes; ++i) {
    const std::vector<std::string> includes = scan.requirements[i].parsed.includes;
    const std::vector<std::string> constraint_includes = scan.requirements[i].parsed.constraint_includes;
    const std::string from = scan.requirements[i].path;
    for (const auto& include : includes) {
      auto target = resolve_include(from, include);
      if (!target || !present.contains(*target)) {
        scan.notes.push_back(fmt::format(
            "{} names '{}', which is not in the project: its requirements are not part of the plan", from, include));
        continue;
      }
      if (!seen.insert(*target).second) continue;
      const bool constraints =
          std::find(constraint_includes.begin(), constraint_includes.end(), include) != constraint_includes.end();
      if (auto added = add_requirements_file(files, *target, parse::RequirementsFormat::requirements_txt, from, scan,
                                             constraints);
          !added)
        scan.notes.push_back(added.error().message);
    }
  }
}

// .python-version ("3.10.12", pyenv) or runtime.txt ("python-3.10.12", Heroku-style): the Python the
// project runs on, as major.minor.
std::optional<PythonDeclaration> python_file(ProjectFiles& files, const std::set<std::string>& present) {
  for (const char* name : {".python-version", "runtime.txt"}) {
    if (!present.contains(name)) continue;
    auto text = files.read(name, 4096);
    if (!text) continue;
    std::string_view t = trim_with_nbsp(std::string_view(*text).substr(0, text->find('\n')));
    if (t.starts_with("python-")) t = t.substr(7);
    std::string version;
    int dots = 0;
    for (char c : t) {
      if (c == '.' && ++dots == 2) break;
      if (!(ascii_is_digit(c) || c == '.')) break;
      version += c;
    }
    if (dots >= 1 || version.find('.') != std::string::npos) return PythonDeclaration{version, name, true};
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> resolve_include(std::string_view from, std::string_view include) {
  return normalize_relative(folder_of(from) + std::string(include));
}

std::optional<parse::RequirementsFormat> requirements_format_of(std::string_view relative_path) {
  using F = parse::RequirementsFormat;
  std::string name = ascii_lower(file_name_of(relative_path));
  const bool root = is_root_file(relative_path);
  if (name.ends_with(".txt") && (name.starts_with("requirements") || name.find("requirements") != std::string::npos ||
                                 name.starts_with("constraints")))
    return F::requirements_txt;
  // Conda environments go by many names (environment-gpu.yml, env-*.yml, conda/*.yaml): every YAML
  // file is a candidate, kept when its content has conda's shape (looks_like_conda_environment).
  if (name.ends_with(".yml") || name.ends_with(".yaml")) return F::conda_environment;
  if (!root) return std::nullopt;  // the others describe the project only at its top
  if (name == "pyproject.toml") return F::pyproject_pep621;
  if (name == "setup.cfg") return F::setup_cfg;
  if (name == "setup.py") return F::setup_py;
  if (name == "pipfile") return F::pipfile;
  return std::nullopt;
}

Result<ProjectScan> scan_project(ProjectFiles& files, const MigrateFacts& facts) {
  if (!files.project_exists())
    return make_error(ErrorCode::not_found, "the project folder does not exist (or is not a folder)");
  TFWSL_TRY(listing, files.list(k_max_depth));
  std::sort(listing.begin(), listing.end(), [](const ProjectFile& a, const ProjectFile& b) { return a.path < b.path; });
  std::set<std::string> present;
  for (const auto& f : listing) present.insert(f.path);
  ProjectScan scan;
  for (const auto& f : listing) {
    // A generated sibling of an earlier run is ours, not the user's.
    if (f.path.find(".wsl.") != std::string::npos || f.path.find(".tfwsl.") != std::string::npos) continue;
    if (auto format = requirements_format_of(f.path))
      TFWSL_TRY_STATUS(add_requirements_file(files, f.path, *format, "", scan));
  }
  follow_includes(files, present, scan);
  scan.python = python_file(files, present);
  std::set<std::string> requirement_files;
  for (const auto& r : scan.requirements) requirement_files.insert(r.path);
  for (const auto& f : listing) {
    const bool code = is_code_file(f.path);
    if (!code && !is_config_file(f.path)) continue;
    if (f.size > k_max_text_bytes) continue;
    auto text = files.read(f.path, k_max_text_bytes);
    if (!text) continue;
    if (code) scan_code(f.path, *text, facts, scan);
    if (!requirement_files.contains(f.path)) scan_paths(f.path, *text, scan);
  }
  if (!scan.python) {
    for (const auto& r : scan.requirements) {
      if (r.parsed.python && !r.parsed.python->spec.empty()) {
        scan.python = PythonDeclaration{r.parsed.python->spec, r.path, r.parsed.python->conda};
        break;
      }
    }
  }
  return scan;
}

}  // namespace tfwsl::migrate
