#include "common/parse/toml_requirements.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <string>
#include <vector>
// toml++ 3.3.0 states preconditions that its parser breaks on hostile text (`[[[1]]]`, or `[` then
// a control character: marzer/tomlplusplus#301, fixed after 3.3.0) as TOML_ASSERT_ASSUME: an abort
// in a build without NDEBUG, undefined behaviour under clang or MSVC with it. What follows each of
// them is what Debian's gcc Release build runs (gcc 12 has no __builtin_assume), here an error
// branch ("expected bare key starting character"): every build runs that code now, the fuzz build
// included.
#include <toml++/impl/preprocessor.h>
#undef TOML_ASSERT_ASSUME
#define TOML_ASSERT_ASSUME(expr) static_assert(true)
#include <toml++/toml.h>

#include "common/parse/toml_unicode_guard.hpp"
#include "common/util/ascii.hpp"
#include "common/util/nesting_depth.hpp"

namespace tfwsl::parse {
namespace {

int line_of(const toml::node& node) { return static_cast<int>(node.source().begin.line); }

std::string without_blanks(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c != ' ' && c != '\t') out += c;
  }
  return out;
}

void set_toml_python(RequirementsResult& result, std::string_view spec, int line) {
  if (result.python) return;
  DeclaredRequirement python;
  python.package = "python";
  python.spec = without_blanks(spec);
  python.line = line;
  result.python = std::move(python);
}

// An array of PEP 508 strings ([project] dependencies, an extra, a dependency group).
void add_pep508_array(RequirementsResult& result, const toml::node_view<const toml::node>& view,
                      const std::string& group) {
  const toml::array* array = view.as_array();
  if (!array) return;
  for (const toml::node& element : *array) {
    const auto text = element.value<std::string>();
    if (!text) continue;  // {include-group = "..."} (PEP 735) names another group, read on its own
    if (auto req = parse_requirement(*text, false, line_of(element))) {
      req->group = group;
      result.requirements.push_back(std::move(*req));
    }
  }
}

void add_pep508_tables(RequirementsResult& result, const toml::node_view<const toml::node>& view,
                       const std::string& prefix) {
  const toml::table* table = view.as_table();
  if (!table) return;
  for (const auto& [name, value] : *table)
    add_pep508_array(result, toml::node_view<const toml::node>(value), prefix + std::string(name.str()));
}

// Poetry's and Pipenv's `name = "spec"` / `name = {version = "...", extras = [...], markers = "..."}`;
// Poetry also takes an array of such tables (one per Python or platform).
void add_keyed_entry(RequirementsResult& result, std::string_view name, const toml::node& value,
                     const std::string& group) {
  DeclaredRequirement req;
  req.package = ascii_lower(name);
  req.line = line_of(value);
  req.group = group;
  req.keyed = true;
  if (const auto spec = value.value<std::string>()) {
    req.spec = without_blanks(*spec);
  } else if (const toml::table* entry = value.as_table()) {
    req.spec = without_blanks((*entry)["version"].value_or(std::string()));
    req.marker = (*entry)["markers"].value_or(std::string());
    if (const auto platform = (*entry)["sys_platform"].value<std::string>()) req.marker = "sys_platform " + *platform;
    if (const auto platform = (*entry)["platform"].value<std::string>())
      req.marker = fmt::format("sys_platform == '{}'", *platform);
    if (const toml::array* extras = (*entry)["extras"].as_array()) {
      for (const toml::node& e : *extras) {
        if (const auto extra = e.value<std::string>()) req.extras.push_back(ascii_lower(*extra));
      }
    }
    if ((*entry)["optional"].value_or(false) && group.empty()) req.group = "optional";
  } else if (const toml::array* alternatives = value.as_array()) {
    for (const toml::node& alternative : *alternatives) add_keyed_entry(result, name, alternative, group);
    return;
  } else {
    return;
  }
  if (req.spec == "*") req.spec.clear();
  result.requirements.push_back(std::move(req));
}

void add_keyed_table(RequirementsResult& result, const toml::node_view<const toml::node>& view,
                     const std::string& group) {
  const toml::table* table = view.as_table();
  if (!table) return;
  for (const auto& [name, value] : *table) {
    if (name.str() == "python") {
      if (const auto spec = value.value<std::string>()) set_toml_python(result, *spec, line_of(value));
      continue;
    }
    add_keyed_entry(result, name.str(), value, group);
  }
}

void read_poetry(RequirementsResult& result, const toml::table& root) {
  const auto poetry = root["tool"]["poetry"];
  add_keyed_table(result, poetry["dependencies"], "");
  add_keyed_table(result, poetry["dev-dependencies"], "dev");
  if (const toml::table* groups = poetry["group"].as_table()) {
    for (const auto& [name, group] : *groups) {
      add_keyed_table(result, toml::node_view<const toml::node>(group)["dependencies"], std::string(name.str()));
    }
  }
}

void read_pep621(RequirementsResult& result, const toml::table& root) {
  const auto project = root["project"];
  add_pep508_array(result, project["dependencies"], "");
  add_pep508_tables(result, project["optional-dependencies"], "");
  if (const auto python = project["requires-python"].value<std::string>())
    set_toml_python(result, *python, line_of(*project["requires-python"].node()));
  add_pep508_tables(result, root["dependency-groups"], "");
  add_pep508_array(result, root["build-system"]["requires"], "build-system");
  add_pep508_tables(result, root["tool"]["pdm"]["dev-dependencies"], "pdm:");
  if (const toml::table* envs = root["tool"]["hatch"]["envs"].as_table()) {
    for (const auto& [name, env] : *envs) {
      const toml::node_view<const toml::node> view(env);
      add_pep508_array(result, view["dependencies"], "hatch:" + std::string(name.str()));
      add_pep508_array(result, view["extra-dependencies"], "hatch:" + std::string(name.str()));
    }
  }
}

void read_pipfile(RequirementsResult& result, const toml::table& root) {
  add_keyed_table(result, root["packages"], "");
  add_keyed_table(result, root["dev-packages"], "dev");
  const auto requires_table = root["requires"];
  for (const char* key : {"python_version", "python_full_version"}) {
    if (const auto version = requires_table[key].value<std::string>())
      set_toml_python(result, *version, line_of(*requires_table[key].node()));
  }
}

}  // namespace

TomlRequirements read_toml_requirements(std::string_view text, RequirementsFormat format) {
  TomlRequirements out;
  out.result.format = format;
  // toml++ walks its tables recursively after parsing and its own nesting limit does not count dotted
  // keys: a 400 KB `a.a.a...=1` overflowed the stack. The depth is bounded before it parses.
  if (const NestingDepth found = deepest_nesting(text, NestingSyntax::toml); found.depth > k_nesting_limit) {
    out.error_line = static_cast<int>(found.line);
    out.error_column = 1;
    out.error = fmt::format("line {}: {}", found.line, nesting_problem(NestingSyntax::toml));
    return out;
  }
  // Never the text as it is: toml++ 3.3.0 has undefined behaviour on some non-ASCII text (see
  // toml_unicode_guard.hpp).
  const std::string guarded = guard_toml_unicode(text);
  toml::parse_result parsed = toml::parse(std::string_view(guarded));
  if (!parsed) {
    const toml::parse_error& error = parsed.error();
    out.error_line = static_cast<int>(error.source().begin.line);
    out.error_column = static_cast<int>(error.source().begin.column);
    out.error = fmt::format("line {}, column {}: {}", out.error_line, out.error_column, error.description());
    return out;
  }
  const toml::table& root = parsed.table();
  if (format == RequirementsFormat::pipfile) {
    read_pipfile(out.result, root);
  } else {
    // [project] and [tool.poetry] may both be there (Poetry 2 reads PEP 621 too): each is read.
    read_pep621(out.result, root);
    if (root["tool"]["poetry"].as_table()) {
      out.result.format = RequirementsFormat::poetry;
      read_poetry(out.result, root);
    }
  }
  // A table's keys come back sorted; the file's order is what the plan shows.
  std::stable_sort(out.result.requirements.begin(), out.result.requirements.end(),
                   [](const DeclaredRequirement& a, const DeclaredRequirement& b) { return a.line < b.line; });
  return out;
}

}  // namespace tfwsl::parse
