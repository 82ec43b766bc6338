#include "common/parse/requirements_parser.hpp"

#include <algorithm>
#include <array>

#include "common/parse/line_tools.hpp"
#include "common/parse/pip_requirements_file.hpp"
#include "common/parse/requirements_sources.hpp"
#include "common/parse/setup_py_reader.hpp"
#include "common/parse/toml_requirements.hpp"
#include "common/util/ascii.hpp"
#include "common/util/text_lines.hpp"
#include "common/version/requirement_syntax.hpp"
#include "common/version/version_spec.hpp"

namespace tfwsl::parse {
namespace {

std::string remove_spaces(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c != ' ' && c != '\t') out += c;
  }
  return out;
}

// "pkg  # comment" -> "pkg", by the one requirement reader's comment rule (pip's).
std::string_view strip_comment(std::string_view line) { return trim_with_nbsp(strip_requirement_comment(line)); }

std::string_view unquote(std::string_view s) {
  s = trim_with_nbsp(s);
  while (!s.empty() && (s.back() == ',')) s = trim_with_nbsp(s.substr(0, s.size() - 1));
  if (s.size() >= 2 && (s.front() == '"' || s.front() == '\'') && s.back() == s.front()) s = s.substr(1, s.size() - 2);
  return trim_with_nbsp(s);
}

// A conda match spec written `name version build` (docs.conda.io, "Package match specifications"):
// the same as `name=version=build`, which is how it is kept ("=2.18.1=cpu_py311h18e2dce_0"; removing
// the blanks would glue the build to the version). The build string is no part of the version:
// diagnose::to_pep440_spec reads either as "==2.18.1". Nothing for the other forms.
std::optional<std::string> conda_version_spec(std::string_view rest) {
  if (rest.empty() || !ascii_is_digit(rest.front())) return std::nullopt;
  const auto blank = rest.find_first_of(" \t");
  if (blank == std::string_view::npos) return std::nullopt;
  const std::string_view version = rest.substr(0, blank);
  const std::string_view build = trim_with_nbsp(rest.substr(blank));
  const bool plain =
      std::all_of(version.begin(), version.end(), [](char c) { return ascii_is_alnum(c) || c == '.' || c == '*'; });
  const bool build_word = !build.empty() && std::all_of(build.begin(), build.end(), [](char c) {
    return ascii_is_alnum(c) || c == '_' || c == '.' || c == '*';
  });
  if (!plain || !build_word) return std::nullopt;
  return "=" + std::string(version) + "=" + std::string(build);
}

}  // namespace

// The shape is read_requirement_parts's (the one requirement reader); this adds conda's forms
// and tolerates what pastes and project files hold that pip would refuse (Poetry's "^2.15", "2.15"
// after a blank), so long as the version part is made of specifier characters only: anything else
// was prose, not a requirement.
std::optional<DeclaredRequirement> parse_requirement(std::string_view text, bool conda, int line_number) {
  text = trim_with_nbsp(text);
  // conda "channel::package": only conda writes a channel so, wherever the line stands.
  const auto channel = text.find("::");
  const std::string_view channel_name = text.substr(0, std::min(channel, text.size()));
  if (channel != std::string_view::npos && channel > 0 && channel < 64 &&
      std::all_of(channel_name.begin(), channel_name.end(), is_package_name_char)) {
    text = text.substr(channel + 2);
    conda = true;
  }
  auto parts = read_requirement_parts(text);
  if (!parts) return std::nullopt;
  DeclaredRequirement req;
  req.conda = conda;
  req.line = line_number;
  req.package = ascii_lower(parts->name);
  for (const auto& extra : parts->extras) req.extras.push_back(ascii_lower(extra));
  req.marker = parts->marker;
  if (!parts->url.empty()) {  // a direct URL: no version spec
    req.url = parts->url;
    return req;
  }
  // `name version build` is conda's form wherever it stands (a `conda list` row quoted amid prose):
  // pip has no blank between a version and anything after it.
  if (auto spec = conda_version_spec(parts->version_part)) {
    req.spec = *spec;
    return req;
  }
  std::string spec = remove_spaces(parts->version_part);
  // conda takes a version (range) in quotes: "python='3.10'", "numpy='>=1.20,<1.24'"
  // (docs.conda.io, "Package search and install specifications").
  if (conda) std::erase_if(spec, [](char c) { return c == '\'' || c == '"'; });
  for (char c : spec) {
    if (!(is_package_name_char(c) || c == '=' || c == '<' || c == '>' || c == '!' || c == '~' || c == ',' || c == '*' ||
          c == '^' || c == '+' || c == '|')) {
      return std::nullopt;
    }
  }
  if (!spec.empty() && is_package_name_char(spec[0]) && !(spec[0] >= '0' && spec[0] <= '9')) return std::nullopt;
  req.spec = spec;
  return req;
}

namespace {

struct Line {
  std::string_view text;
  int number;
};

RequirementsFormat detect_format(const std::vector<Line>& lines) {
  bool has_dependencies_key = false;
  bool has_dash_items = false;
  for (const auto& line : lines) {
    std::string_view t = trim_with_nbsp(line.text);
    if (t.starts_with("[tool.poetry")) return RequirementsFormat::poetry;
    if (t == "[project]" || t.starts_with("[project.") || t.starts_with("[build-system]"))
      return RequirementsFormat::pyproject_pep621;
    if (t == "[options]" || t.starts_with("[options.") || t.starts_with("[metadata]"))
      return RequirementsFormat::setup_cfg;
    if (t.starts_with("install_requires=") || t.starts_with("install_requires =") || contains(t, "setup(")) {
      if (contains(t, "[") || contains(t, "setup(")) return RequirementsFormat::setup_py;
    }
    if (t.starts_with("dependencies:") || t.starts_with("channels:")) has_dependencies_key = true;
    if (t.starts_with("- ")) has_dash_items = true;
  }
  if (has_dependencies_key && has_dash_items) return RequirementsFormat::conda_environment;
  return RequirementsFormat::requirements_txt;
}

void set_python(RequirementsResult& result, std::string spec, int line) {
  if (result.python) return;
  DeclaredRequirement python;
  python.package = "python";
  python.spec = std::move(spec);
  python.line = line;
  result.python = std::move(python);
}

// A "python" requirement (conda's "- python=3.11", `conda create python=3.7`) is also the Python the
// project runs on: `result.python` says so (the entry stays a conda package in the list).
void take_python(RequirementsResult& result) {
  if (result.python) return;
  auto it = std::find_if(result.requirements.begin(), result.requirements.end(),
                         [](const DeclaredRequirement& r) { return r.package == "python"; });
  if (it != result.requirements.end()) result.python = *it;
}

void add(RequirementsResult& result, std::string_view text, bool conda, int line) {
  if (auto req = parse_requirement(text, conda, line)) result.requirements.push_back(std::move(*req));
}

// Every quoted string on the line ("tensorflow>=2.12", 'numpy') as a requirement; with skip_keys,
// not a dict key ({'dev': [...]}: the name of an extra in setup.py's extras_require).
void add_quoted(RequirementsResult& result, std::string_view line, int number, bool skip_keys = false) {
  for (std::size_t i = 0; i < line.size(); ++i) {
    char q = line[i];
    if (q != '"' && q != '\'') continue;
    auto close = line.find(q, i + 1);
    if (close == std::string_view::npos) return;
    const auto next = line.find_first_not_of(" \t", close + 1);
    const bool key = skip_keys && next != std::string_view::npos && line[next] == ':';
    if (!key) add(result, line.substr(i + 1, close - i - 1), false, number);
    i = close;
  }
}

// A joined line longer than this is no requirement (a pasted progress bar): skipped, which keeps
// garbage cheap.
constexpr std::size_t k_longest_joined_line = 64 * 1024;

// A line that is one markdown code span (`anaconda::tensorflow=1.12.0=mkl_py36h69b6ba0_0` on a line of
// its own in a post) is what the span holds.
std::string_view unwrap_code_span(std::string_view line) {
  if (line.size() > 2 && line.front() == '`' && line.back() == '`' &&
      line.substr(1, line.size() - 2).find('`') == std::string_view::npos)
    return trim_with_nbsp(line.substr(1, line.size() - 2));
  return line;
}

// pip's file syntax (join_pip_lines, pip_include_of: common/parse/pip_requirements_file), with the
// shapes pastes add first: install commands, image tags, listing rows, bullets.
void parse_txt(RequirementsResult& result, std::string_view text, bool listing) {
  for (const auto& [joined, number] : join_pip_lines(text)) {
    if (joined.size() > k_longest_joined_line) continue;
    const std::string_view line = unwrap_code_span(trim_with_nbsp(joined));
    if (read_install_command(line, number, result) || read_tensorflow_image(line, number, result) ||
        read_listing_row(line, number, listing, result) || read_bullet(line, number, result))
      continue;
    std::string_view t = strip_comment(line);
    if (t.empty()) continue;
    if (auto include = pip_include_of(t, number)) {
      result.includes.push_back(include->target);
      if (include->constraint) result.constraint_includes.push_back(include->target);
      continue;
    }
    if (t[0] == '-') continue;  // --extra-index-url, -e ., --hash continuation
    add(result, t, false, number);
  }
}

void parse_conda(RequirementsResult& result, const std::vector<Line>& lines) {
  bool in_dependencies = false;
  std::size_t pip_indent = std::string_view::npos;
  for (const auto& line : lines) {
    std::string_view raw = line.text;
    std::string_view t = strip_comment(trim_with_nbsp(raw));
    if (t.empty()) continue;
    std::size_t indent = raw.find_first_not_of(" \t");
    if (indent == 0 && !t.starts_with("- ")) {
      in_dependencies = t.starts_with("dependencies:");
      pip_indent = std::string_view::npos;
      continue;
    }
    if (!in_dependencies || !t.starts_with("-")) continue;
    std::string_view item = unquote(trim_with_nbsp(t.substr(1)));
    if (pip_indent != std::string_view::npos && indent <= pip_indent) pip_indent = std::string_view::npos;
    if (item == "pip:" || item.starts_with("pip:")) {
      pip_indent = indent;
      continue;
    }
    bool conda = pip_indent == std::string_view::npos;
    add(result, item, conda, line.number);
  }
}

// setup.cfg (setuptools' declarative config): [options] install_requires / setup_requires /
// python_requires and [options.extras_require], each a dangling list of one requirement per line.
void parse_cfg(RequirementsResult& result, const std::vector<Line>& lines) {
  std::string section;
  bool in_list = false;
  std::string group;
  auto add_in_group = [&](std::string_view text, int number) {
    if (auto req = parse_requirement(text, false, number)) {
      req->group = group;
      result.requirements.push_back(std::move(*req));
    }
  };
  for (const auto& line : lines) {
    std::string_view raw = line.text;
    std::string_view t = strip_comment(trim_with_nbsp(raw));
    if (t.empty()) continue;
    bool indented = raw.find_first_not_of(" \t") > 0;
    if (t.front() == '[' && t.back() == ']') {
      section = ascii_lower(t.substr(1, t.size() - 2));
      in_list = false;
      continue;
    }
    if (indented && in_list) {
      add_in_group(t, line.number);
      continue;
    }
    auto eq = t.find('=');
    in_list = false;
    if (eq == std::string_view::npos) continue;
    std::string key = ascii_lower(trim_with_nbsp(t.substr(0, eq)));
    std::string_view value = trim_with_nbsp(t.substr(eq + 1));
    if (section == "options" && key == "python_requires") {
      set_python(result, remove_spaces(value), line.number);
      continue;
    }
    bool wanted = (section == "options" && (key == "install_requires" || key == "setup_requires")) ||
                  section == "options.extras_require";
    if (!wanted) continue;
    in_list = true;
    group = section == "options.extras_require" ? key : key == "setup_requires" ? "build-system" : "";
    if (!value.empty()) add_in_group(value, line.number);
  }
}

// The keywords of setup() whose values are requirement lists.
bool names_requirement_list(std::string_view t) {
  return contains(t, "install_requires") || contains(t, "extras_require") || contains(t, "setup_requires") ||
         contains(t, "tests_require");
}

int bracket_balance(std::string_view t) {
  int balance = 0;
  for (char c : t) balance += (c == '[' || c == '{' || c == '(') ? 1 : (c == ']' || c == '}' || c == ')') ? -1 : 0;
  return balance;
}

void parse_setup_py(RequirementsResult& result, const std::vector<Line>& lines) {
  // A whole setup.py names other strings too (name, README.md, package data): when it names a
  // requirement list, only the strings inside those lists count. A pasted fragment of a list alone
  // keeps the old reading (every quoted string on a line).
  bool scoped = false;
  for (const auto& line : lines) scoped = scoped || names_requirement_list(line.text);
  int depth = 0;  // open brackets of the requirement list we are in; 0: outside
  for (const auto& line : lines) {
    std::string_view t = strip_comment(trim_with_nbsp(line.text));
    if (scoped) {
      const bool starts_list = depth == 0 && names_requirement_list(t);
      if (depth == 0 && !starts_list && !contains(t, "python_requires")) continue;
      if (starts_list) {
        auto eq = t.find_first_of("=:");
        std::string_view value = eq == std::string_view::npos ? t : t.substr(eq + 1);
        add_quoted(result, value, line.number, true);
        depth = std::max(0, bracket_balance(value));
        continue;
      }
      if (depth > 0) {
        add_quoted(result, t, line.number, true);
        depth = std::max(0, depth + bracket_balance(t));
        continue;
      }
    }
    if (auto at = t.find("python_requires"); at != std::string_view::npos) {
      std::string_view value = t.substr(at + 15);
      const auto q = value.find_first_of("\"'");
      const auto close = q == std::string_view::npos ? q : value.find(value[q], q + 1);
      if (close != std::string_view::npos)
        set_python(result, remove_spaces(value.substr(q + 1, close - q - 1)), line.number);
      continue;
    }
    if (contains(t, "name=") || contains(t, "version=") || contains(t, "description=")) continue;
    add_quoted(result, t, line.number);
  }
}

}  // namespace

const char* to_string(RequirementsFormat format) {
  switch (format) {
    case RequirementsFormat::requirements_txt:
      return "requirements.txt";
    case RequirementsFormat::conda_environment:
      return "environment.yml";
    case RequirementsFormat::pyproject_pep621:
      return "pyproject.toml";
    case RequirementsFormat::poetry:
      return "pyproject.toml (poetry)";
    case RequirementsFormat::setup_cfg:
      return "setup.cfg";
    case RequirementsFormat::setup_py:
      return "setup.py";
    case RequirementsFormat::pipfile:
      return "Pipfile";
  }
  return "requirements.txt";
}

namespace {

std::vector<Line> numbered_lines(std::string_view text) {
  std::vector<Line> lines;
  int number = 0;
  for (std::string_view line : lines_of(text)) {
    ++number;
    if (line.size() > 4096) continue;  // no requirement is that long; keeps garbage cheap
    lines.push_back({line, number});
  }
  return lines;
}

RequirementsResult parse_as(std::string_view text, const std::vector<Line>& lines, RequirementsFormat format) {
  RequirementsResult result;
  result.format = format;
  switch (result.format) {
    case RequirementsFormat::requirements_txt:
      parse_txt(result, text, looks_like_listing(text));
      break;
    case RequirementsFormat::conda_environment:
      parse_conda(result, lines);
      break;
    case RequirementsFormat::pyproject_pep621:
    case RequirementsFormat::poetry:
    case RequirementsFormat::pipfile:
      result = read_toml_requirements(text, format).result;
      break;
    case RequirementsFormat::setup_cfg:
      parse_cfg(result, lines);
      break;
    case RequirementsFormat::setup_py:
      if (!read_setup_py(text, result)) parse_setup_py(result, lines);  // a pasted fragment of one
      break;
  }
  take_python(result);
  return result;
}

}  // namespace

namespace {

// The lines of the pasted file: inside the first markdown fence that holds a TOML table header
// ("[tool.poetry]"), else from the first table on when prose precedes it, else every line.
std::pair<std::size_t, std::size_t> fenced_table_block(const std::vector<std::string_view>& lines) {
  std::size_t open = std::string_view::npos;
  bool table = false;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string_view t = trim_with_nbsp(lines[i]);
    if (t.starts_with("```")) {
      if (open != std::string_view::npos && table) return {open + 1, i - 1};
      open = open == std::string_view::npos ? i : std::string_view::npos;
      table = false;
    } else if (open != std::string_view::npos && t.starts_with("[")) {
      table = true;
    }
  }
  if (open != std::string_view::npos && table) return {open + 1, lines.size() - 1};  // an unclosed fence
  // No fence (or the cleaner took it away): what precedes the first table, when none of it is a
  // key = value line, is the message's.
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string_view t = trim_with_nbsp(lines[i]);
    if (t.starts_with("[")) return {i, lines.size()};
    if (t.find('=') != std::string_view::npos) break;
  }
  return {0, lines.size()};
}

}  // namespace

RequirementsResult parse_requirements(std::string_view text) {
  const auto lines = numbered_lines(text);
  const RequirementsFormat format = detect_format(lines);
  if (format != RequirementsFormat::pyproject_pep621 && format != RequirementsFormat::poetry)
    return parse_as(text, lines, format);
  // A pasted pyproject.toml often comes in a markdown fence (```toml): the fence lines are the
  // page's, not the file's, and so is the prose around the fence that holds the file's tables;
  // blanked, so the line numbers stay.
  const std::vector<std::string_view> all = lines_of(text);
  const auto [first, last] = fenced_table_block(all);
  std::string unfenced;
  for (std::size_t i = 0; i < all.size(); ++i) {
    const bool page = trim_with_nbsp(all[i]).starts_with("```") || i < first || i > last;
    unfenced += (page ? "" : std::string(all[i])) + "\n";
  }
  return parse_as(unfenced, numbered_lines(unfenced), format);
}

RequirementsResult parse_requirements(std::string_view text, RequirementsFormat format) {
  return parse_as(text, numbered_lines(text), format);
}

double looks_like_requirements(std::string_view text) {
  std::size_t lines = 0;
  std::size_t requirement_like = 0;
  bool structure = false;
  bool tensorflow = false;
  RequirementsResult declared;  // what install commands, image tags and bullets name
  for (const auto& [joined, number] : join_pip_lines(text.substr(0, 1 << 20))) {
    if (joined.size() > k_longest_joined_line) continue;
    std::string_view t = unwrap_code_span(trim_with_nbsp(joined));
    if (t.empty() || t[0] == '#') continue;
    ++lines;
    if (t.starts_with("dependencies:") || t.starts_with("[tool.poetry") || t == "[project]" ||
        t.starts_with("install_requires") || t.starts_with("- pip:") || t == "[options]") {
      structure = true;
    }
    if (read_tensorflow_image(t, 0, declared) || read_install_command(t, 0, declared) || read_bullet(t, 0, declared))
      continue;
    if (t.starts_with("-r ") || t.starts_with("--extra-index-url") || t.starts_with("--index-url") ||
        t.starts_with("-e ") || t.starts_with("--find-links")) {
      ++requirement_like;
      continue;
    }
    std::string_view item = t.starts_with("- ") ? unquote(t.substr(2)) : t;
    auto req = parse_requirement(strip_comment(item), false, 0);
    // A bare word counts only weakly: prose lines start with words too.
    if (req && (!req->spec.empty() || !req->extras.empty() || t.find(' ') == std::string_view::npos)) {
      ++requirement_like;
      tensorflow = tensorflow || is_tensorflow_distribution(normalize_package_name(req->package));
    }
  }
  if (lines == 0) return 0.0;
  double share = static_cast<double>(requirement_like) / static_cast<double>(lines);
  double score = share * 0.4;
  if (requirement_like >= 1 && share >= 0.6) score = 0.45 + 0.4 * share;
  if (structure) score = std::max(0.8, share);
  // Requirements in other clothes: install commands that name packages (scripts, Dockerfiles,
  // READMEs), a TensorFlow image, a package listing, or a README whose lines pin TensorFlow.
  if (find_tensorflow(declared) && !structure) score = std::max(score, 0.75);
  if (!declared.requirements.empty()) score = std::max(score, 0.65);
  if (looks_like_listing(text)) score = std::max(score, 0.75);
  if (tensorflow && requirement_like >= 1) score = std::max(score, 0.6);
  return score;
}

}  // namespace tfwsl::parse
