#include "win/migrate/requirements_translation.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "common/diagnose/tensorflow_range.hpp"
#include "common/parse/line_tools.hpp"
#include "common/util/ascii.hpp"
#include "common/util/text_lines.hpp"
#include "common/version/version_spec.hpp"

namespace tfwsl::migrate {
namespace {

using parse::DeclaredRequirement;
using parse::RequirementsFormat;

enum class Action { keep, drop, replace };

struct Edit {
  Action action = Action::keep;
  std::string replacement;  // for replace: the new requirement text
  std::string reason;       // for drop
};

bool is_quoted_format(RequirementsFormat f) {
  return f == RequirementsFormat::pyproject_pep621 || f == RequirementsFormat::setup_py;
}

std::string requirement_name(const DeclaredRequirement& r) {
  std::string extras;
  for (const auto& e : r.extras) extras += (extras.empty() ? "" : ",") + e;
  return r.package + (extras.empty() ? "" : "[" + extras + "]");
}

std::string requirement_text(const DeclaredRequirement& r) {
  return requirement_name(r) + r.spec + (r.url.empty() ? "" : " @ " + r.url);
}

// The TensorFlow line for the target: the renamed distribution with [and-cuda] at the target series;
// nothing when the line already is that (kept as written). A nightly keeps its own version.
std::optional<std::string> tensorflow_replacement(const DeclaredRequirement& r, const TfDecision& d,
                                                  const MigrateFacts& facts) {
  const std::string name = normalize_package_name(r.package);
  const Rename* rename = facts.find_rename(name);
  const std::string package = rename ? rename->to : name;
  std::vector<std::string> extras = r.extras;
  if (std::find(extras.begin(), extras.end(), "and-cuda") == extras.end()) extras.push_back("and-cuda");
  const bool nightly = package == "tf-nightly";
  std::string spec = "==" + d.target->series.to_string() + ".*";
  if (nightly) spec = r.conda ? diagnose::to_pep440_spec(r.spec, true) : r.spec;
  auto current = VersionSpec::parse(diagnose::to_pep440_spec(r.spec, r.conda));
  const bool spec_fits = current && current->admits_series(d.target->series.truncated(2));
  if (!r.conda && !rename && extras.size() == r.extras.size() && (nightly || (spec_fits && !r.spec.empty())))
    return std::nullopt;
  std::string extras_text;
  for (const auto& e : extras) extras_text += (extras_text.empty() ? "" : ",") + e;
  return package + "[" + extras_text + "]" + spec;
}

// The exact pin a series replacement widens: "==2.16.1" replaced by "...==2.16.*".
std::string widened_pin(const DeclaredRequirement& r, const std::string& replacement) {
  const std::string spec = diagnose::to_pep440_spec(r.spec, r.conda);
  const bool exact = spec.starts_with("==") && spec.find_first_of("*,") == std::string::npos;
  return exact && replacement.ends_with(".*") ? spec : std::string();
}

// `file:///C:/...`: a folder of the Windows machine (conda's `pip freeze` on Windows writes its
// build folders so: `absl-py @ file:///C:/b/abs_.../work`), which the distro does not have.
bool is_windows_local_url(std::string_view url) {
  const std::string lower = ascii_lower(url);
  if (!lower.starts_with("file:")) return false;
  std::string_view rest = std::string_view(lower).substr(5);
  while (rest.starts_with("/")) rest.remove_prefix(1);
  return rest.size() >= 2 && ascii_is_alpha(rest[0]) && rest[1] == ':';
}

Edit edit_for(const DeclaredRequirement& r, const TfDecision& d, const MigrateFacts& facts) {
  const std::string name = normalize_package_name(r.package);
  // A Windows-only requirement that says so with a marker stays as written: pip skips it on Linux.
  if (marker_excludes_linux(r.marker)) return {};
  // A Windows build folder: the same package from the index (its version was the build's, unknown).
  if (is_windows_local_url(r.url) && !parse::is_tensorflow_distribution(name))
    return {Action::replace, requirement_name(r), {}};
  if (const DropRule* drop = facts.find_drop(name)) {
    const bool names_tensorflow = std::any_of(d.pins.begin(), d.pins.end(), [](const TfPin& p) {
      return parse::is_tensorflow_distribution(normalize_package_name(p.package));
    });
    if (drop->brings_tensorflow && !names_tensorflow && d.target)
      return {Action::replace, "tensorflow[and-cuda]==" + d.target->series.to_string() + ".*", {}};
    if ((!drop->conda_only || r.conda) && (!drop->pinned_only || !r.spec.empty()))
      return {Action::drop, {}, drop->reason};
  }
  if (parse::is_tensorflow_distribution(name) && d.target && name != "tensorflow-macos") {
    if (auto to = tensorflow_replacement(r, d, facts)) return {Action::replace, *to, {}};
    return {};
  }
  if (d.legacy_keras && name == "keras" && !r.spec.empty()) {
    auto spec = VersionSpec::parse(diagnose::to_pep440_spec(r.spec, r.conda));
    if (spec && !spec->admits_series(version_literal("3")))
      return {Action::replace, "tf-keras==" + d.target->series.to_string() + ".*", {}};
  }
  return {};
}

// Where the requirement starts on its line (its package name, case-insensitive, as a whole word).
std::size_t find_package(std::string_view line, std::string_view package) {
  const std::string lower = ascii_lower(line);
  std::size_t at = 0;
  while ((at = lower.find(package, at)) != std::string::npos) {
    const bool start_ok = at == 0 || !(is_package_name_char(lower[at - 1]));
    const std::size_t end = at + package.size();
    const bool end_ok = end >= lower.size() || !is_package_name_char(lower[end]) || lower[end] == '.';
    if (start_ok && end_ok) return at;
    at = end;
  }
  return std::string::npos;
}

// The end of the requirement text that starts at `start`: before a marker, a comment, pip options
// or the closing quote.
std::size_t requirement_end(std::string_view line, std::size_t start) {
  char quote = start > 0 && (line[start - 1] == '"' || line[start - 1] == '\'') ? line[start - 1] : 0;
  for (std::size_t i = start; i < line.size(); ++i) {
    char c = line[i];
    if (quote != 0 && c == quote) return i;
    if (c == ';' || (quote == 0 && c == '#' && i > start && (line[i - 1] == ' ' || line[i - 1] == '\t'))) {
      std::size_t end = i;
      while (end > start && (line[end - 1] == ' ' || line[end - 1] == '\t')) --end;
      return end;
    }
    if (quote == 0 && c == ' ' && line.substr(i).starts_with(" --")) return i;
    // `pkg==1.0 \` continued by `--hash=...` lines: the continuation stays, or pip drops the hashes.
    if (quote == 0 && (c == ' ' || c == '\t') && trim_with_nbsp(line.substr(i)) == "\\") return i;
  }
  std::size_t end = line.size();
  while (end > start && (line[end - 1] == ' ' || line[end - 1] == '\t')) --end;
  return end;
}

std::string replace_on_line(std::string_view line, const DeclaredRequirement& r, const std::string& to) {
  const std::size_t at = find_package(line, r.package);
  if (at == std::string::npos) return std::string(line);
  if (r.keyed) {
    // `tensorflow-gpu = "^2.10"` / `tensorflow = {version = ...}`: the whole entry, as Poetry and Pipenv write it.
    const auto open = to.find('[');
    const auto close = to.find(']');
    const std::string package = to.substr(0, open);
    const std::string extras = to.substr(open + 1, close - open - 1);
    std::string spec = to.substr(close + 1);
    if (spec.starts_with("==")) spec = spec.substr(2);
    std::string extras_list;
    for (std::size_t s = 0; s <= extras.size();) {
      auto comma = extras.find(',', s);
      if (comma == std::string::npos) comma = extras.size();
      extras_list += fmt::format("{}\"{}\"", extras_list.empty() ? "" : ", ", extras.substr(s, comma - s));
      s = comma + 1;
    }
    return fmt::format("{}{} = {{version = \"{}\", extras = [{}]}}", line.substr(0, at), package, spec, extras_list);
  }
  const std::size_t end = requirement_end(line, at);
  return std::string(line.substr(0, at)) + to + std::string(line.substr(end));
}

std::string drop_on_line(std::string_view line, const DeclaredRequirement& r, bool several_on_line) {
  if (several_on_line) {
    const std::size_t at = find_package(line, r.package);
    if (at != std::string::npos && at > 0 && (line[at - 1] == '"' || line[at - 1] == '\'')) {
      const std::size_t close = line.find(line[at - 1], at);  // the string's end, marker included
      std::size_t end = close == std::string_view::npos ? line.size() : close + 1;
      while (end < line.size() && (line[end] == ',' || line[end] == ' ')) ++end;
      return std::string(line.substr(0, at - 1)) + std::string(line.substr(end));
    }
  }
  const std::size_t indent = line.find_first_not_of(" \t");
  const std::size_t from = indent == std::string_view::npos ? 0 : indent;
  return fmt::format("{}# dropped by tfwsl migrate: {}", line.substr(0, from), line.substr(from));
}

// `-r base.txt` / `-c constraints.txt`: pointed at the translated sibling when the project has the
// file (a sibling is written only for a file that was read); otherwise left as written.
std::string retarget_include(std::string_view line, const RequirementsFile& file,
                             const std::set<std::string>& scanned) {
  std::string out(line);
  for (const auto& include : file.parsed.includes) {
    auto target = resolve_include(file.path, include);
    auto at = out.find(include);
    if (target && scanned.contains(*target) && at != std::string::npos)
      out.replace(at, include.size(), translated_path(include));
  }
  return out;
}

void add_kept(Translation& t, const std::string& name) {
  if (std::find(t.kept.begin(), t.kept.end(), name) == t.kept.end()) t.kept.push_back(name);
}

void append_diff(Translation& t, const std::string& source, const std::string& target,
                 const std::vector<std::string>& before, const std::vector<std::string>& after) {
  std::string hunks;
  for (std::size_t i = 0; i < after.size(); ++i) {
    if (i < before.size() && before[i] == after[i]) continue;
    if (i < before.size())
      hunks += fmt::format("@@ -{} +{} @@\n-{}\n+{}\n", i + 1, i + 1, before[i], after[i]);
    else
      hunks += fmt::format("@@ -{},0 +{} @@\n+{}\n", before.size(), i + 1, after[i]);
  }
  if (!hunks.empty()) t.diff += fmt::format("--- {}\n+++ {}\n{}", source, target, hunks);
}

FileTranslation translate_file(const RequirementsFile& file, const std::set<std::string>& scanned, const TfDecision& d,
                               const MigrateFacts& facts, bool add_tf_keras, Translation& t) {
  std::map<int, std::vector<const DeclaredRequirement*>> by_line;
  for (const auto& r : file.parsed.requirements) by_line[r.line].push_back(&r);
  std::vector<std::string> before;
  for (std::string_view line : lines_of(file.text)) before.emplace_back(line);
  std::vector<std::string> after = before;
  for (auto& [number, reqs] : by_line) {
    if (number < 1 || static_cast<std::size_t>(number) > after.size()) continue;
    std::string& line = after[static_cast<std::size_t>(number) - 1];
    for (const DeclaredRequirement* r : reqs) {
      const Edit e = edit_for(*r, d, facts);
      const std::string name = normalize_package_name(r->package);
      if (e.action == Action::keep) add_kept(t, name);
      if (e.action == Action::drop) {
        line = drop_on_line(line, *r, reqs.size() > 1 && is_quoted_format(file.parsed.format));
        t.dropped.push_back({name, file.path, number, e.reason});
      }
      if (e.action == Action::replace && r->conda) {
        // A conda package list takes no pip requirement: the line goes, pip installs the replacement.
        const std::size_t indent = std::min(line.find_first_not_of(" \t"), line.size());
        line = fmt::format("{}# moved to pip by tfwsl migrate ({}): {}", line.substr(0, indent), e.replacement,
                           line.substr(indent));
        t.translated.push_back(
            {requirement_text(*r), e.replacement, file.path, number, widened_pin(*r, e.replacement)});
        if (std::find(t.added.begin(), t.added.end(), e.replacement) == t.added.end()) t.added.push_back(e.replacement);
      } else if (e.action == Action::replace) {
        line = replace_on_line(line, *r, e.replacement);
        t.translated.push_back(
            {requirement_text(*r), e.replacement, file.path, number, widened_pin(*r, e.replacement)});
      }
    }
  }
  if (file.parsed.format == RequirementsFormat::requirements_txt) {
    for (auto& line : after) {
      std::string_view s = trim_with_nbsp(line);
      if (s.starts_with("-r") || s.starts_with("-c") || s.starts_with("--requirement") || s.starts_with("--constraint"))
        line = retarget_include(line, file, scanned);
    }
  }
  if (add_tf_keras) {
    const std::string added = "tf-keras==" + d.target->series.to_string() + ".*";
    after.push_back(added + "  # added by tfwsl migrate: Keras 2 on TF " + d.target->series.to_string() +
                    " (TF_USE_LEGACY_KERAS=1)");
    t.added.push_back(added);
  }
  append_diff(t, file.path, translated_path(file.path), before, after);
  FileTranslation out{file.path, translated_path(file.path), {}, after != before};
  for (const auto& line : after) out.text += line + "\n";
  return out;
}

// The file that gets tf-keras: the first plain requirements file naming TensorFlow.
std::string tf_keras_home(const ProjectScan& scan) {
  for (const auto& f : scan.requirements) {
    if (f.parsed.format == RequirementsFormat::requirements_txt && parse::find_tensorflow(f.parsed)) return f.path;
  }
  return {};
}

}  // namespace

std::string translated_path(std::string_view path) {
  const auto slash = path.find_last_of("/\\");
  const auto dot = path.find_last_of('.');
  if (dot == std::string_view::npos || (slash != std::string_view::npos && dot < slash) || dot == 0 ||
      (slash != std::string_view::npos && dot == slash + 1))
    return std::string(path) + ".wsl";
  return std::string(path.substr(0, dot)) + ".wsl" + std::string(path.substr(dot));
}

Translation translate_requirements(const ProjectScan& scan, const TfDecision& decision, const MigrateFacts& facts) {
  Translation t;
  bool keras2_pin = false;  // a keras<3 pin becomes tf-keras where it stands
  bool has_tf_keras = false;
  for (const auto& f : scan.requirements) {
    for (const auto& r : f.parsed.requirements) {
      const std::string name = normalize_package_name(r.package);
      has_tf_keras = has_tf_keras || name == "tf-keras";
      if (name != "keras" || r.spec.empty()) continue;
      auto spec = VersionSpec::parse(diagnose::to_pep440_spec(r.spec, r.conda));
      keras2_pin = keras2_pin || (spec && !spec->admits_series(version_literal("3")));
    }
  }
  const bool add = decision.legacy_keras && decision.target && !keras2_pin && !has_tf_keras;
  const std::string home = add ? tf_keras_home(scan) : std::string();
  std::set<std::string> scanned;
  for (const auto& file : scan.requirements) scanned.insert(file.path);
  for (const auto& file : scan.requirements)
    t.files.push_back(translate_file(file, scanned, decision, facts, add && file.path == home, t));
  if (add && home.empty()) t.added.push_back("tf-keras==" + decision.target->series.to_string() + ".*");
  return t;
}

}  // namespace tfwsl::migrate
