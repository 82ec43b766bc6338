#include "common/diagnose/kind_detector.hpp"

#include <algorithm>

#include "common/parse/ldconfig_parser.hpp"
#include "common/parse/line_tools.hpp"
#include "common/parse/output_recognizer.hpp"
#include "common/parse/requirements_parser.hpp"
#include "common/parse/tf_log_parser.hpp"
#include "common/parse/wsl_list_parser.hpp"
#include "common/util/ascii.hpp"
#include "common/util/text_lines.hpp"
#include "common/wslconfig/wslconfig_facts.hpp"

namespace tfwsl::diagnose {
namespace {

constexpr double k_threshold = 0.5;
constexpr std::size_t k_recognise_bytes = 256 * 1024;

// The command names wsl.exe's option, typed as the user typed it ("wsl --satus").
bool names_option(std::string_view c, std::string_view option) {
  for (std::string_view word : parse::words_of(c)) {
    if (word.size() > 2 && word.starts_with("--") && parse::within_one_edit(ascii_lower(word), option)) return true;
  }
  return false;
}

// The command the user ran says what follows it: a small boost, never a verdict on its own.
double command_boost(std::string_view c, const std::string& kind) {
  bool wsl = icontains(c, "wsl");
  // `wsl -l -q` prints bare names, which look like a requirements file (0.85): the command decides.
  if (kind == "wsl-list" && parse::is_wsl_quiet_list_command(c)) return 0.9;
  if (kind == "wsl-list" && wsl && (parse::contains(c, " -l") || icontains(c, "--list"))) return 0.15;
  if (kind == "wsl-status" && wsl && (names_option(c, "--status") || icontains(c, "--update"))) return 0.15;
  if (kind == "wsl-version" && wsl && names_option(c, "--version")) return 0.15;
  if (kind == "wsl-version" && parse::mentions_wsl_version_command(c)) return 0.15;
  if (kind == "nvidia-smi" && icontains(c, "nvidia-smi")) return 0.15;
  // A Python session that imports TensorFlow: what it printed is TF's (even an empty device list).
  if (kind == "tf-log" && parse::contains(c, "import tensorflow")) return 0.55;
  // TensorFlow's own device query: what follows is its device list, even "[]" next to prose that
  // names pip commands.
  if (kind == "tf-log" && parse::contains(c, "list_physical_devices(")) return 0.8;
  if (kind == "tf-log" && (parse::contains(c, "tensorflow") || parse::contains(c, "tf."))) return 0.1;
  if (kind == "wslconfig" && icontains(c, ".wslconfig")) return 0.2;
  if (kind == "requirements" && (icontains(c, "requirements") || icontains(c, "environment.y") ||
                                 icontains(c, "pyproject.toml") || icontains(c, "setup.cfg"))) {
    return 0.2;
  }
  return 0;
}

// What an installer's resolver prints when it fails: pip's "Could not find a version that satisfies
// the requirement" and "No matching distribution found for"; Poetry's "so it will not be satisfied
// for Python", "Unable to find installation candidates for" and "version solving failed"; uv's "No
// solution found when resolving dependencies".
bool shows_resolver_failure(std::string_view text) {
  for (std::string_view message :
       {"no matching distribution found", "satisfies the requirement", "so it will not be satisfied for python",
        "unable to find installation candidates for", "version solving failed",
        "no solution found when resolving dependencies"}) {
    if (icontains(text, message)) return true;
  }
  return false;
}

// An installer's resolver failing: the paste is its output about its command, not a project's
// requirements, even where the command line was pasted with it (or, as Poetry does, the output
// lists the packages as bullets).
bool is_pip_failure(const CleanedPaste& paste) {
  const std::string_view text = paste.text;
  if (!shows_resolver_failure(text)) return false;
  // What the reader found comes from the install command's line, not from a file's list.
  const auto lines = lines_of(text);
  std::size_t from_a_list = 0;
  for (const auto& r : parse::parse_requirements(text).requirements) {
    const std::string_view line =
        r.line > 0 && std::size_t(r.line) <= lines.size() ? lines[r.line - 1] : std::string_view();
    if (!icontains(line, "pip install") && !icontains(line, "pip3 install") && !icontains(line, "conda install") &&
        !icontains(line, "poetry add"))
      ++from_a_list;
  }
  if (from_a_list <= 1) return true;
  // An issue template's words read as names ("Bug", "Yes"): the TensorFlow requirement itself is
  // the install command's, so the paste is still pip's output.
  const auto parsed = parse::parse_requirements(text);
  const auto* tf = parse::find_tensorflow(parsed);
  const std::string_view tf_line =
      tf && tf->line > 0 && std::size_t(tf->line) <= lines.size() ? lines[tf->line - 1] : std::string_view();
  return icontains(tf_line, "pip install") || icontains(tf_line, "pip3 install");
}

}  // namespace

std::vector<KindScore> score_kinds(const CleanedPaste& paste) {
  // The head of a paste says what it is; a 10 MB log must not cost ten times a 1 MB one to
  // recognise. Cut on a line end so no recogniser sees half a line.
  std::string_view text = paste.text;
  if (text.size() > k_recognise_bytes) {
    std::size_t cut = text.rfind('\n', k_recognise_bytes);
    text = text.substr(0, cut == std::string_view::npos ? k_recognise_bytes : cut + 1);
  }
  std::vector<KindScore> scores = {
      {"wsl-list", parse::looks_like_wsl_list(text)},
      {"wsl-status", parse::looks_like_wsl_status(text)},
      {"wsl-version", parse::looks_like_wsl_version(text)},
      {"nvidia-smi", parse::looks_like_nvidia_smi(text)},
      {"tf-log", parse::looks_like_tf_log(text)},
      {"ldconfig", parse::looks_like_ldconfig(text, paste.commands)},
      {"wslconfig", wslconfig::looks_like_wslconfig(text)},
      {"requirements", parse::looks_like_requirements(text)},
  };
  for (auto& score : scores)
    if (score.kind == "requirements" && score.score >= k_threshold && is_pip_failure(paste))
      score.score = k_threshold - 0.05;
  // A session pasted whole shows several commands and their outputs: when two kinds fit equally
  // well, the one whose command came last (what the user was asking about) ranks first.
  std::vector<std::pair<double, KindScore>> ranked;
  for (auto& score : scores) {
    double boost = 0;
    double position = 0;
    for (std::size_t i = 0; i < paste.commands.size(); ++i) {
      double b = command_boost(paste.commands[i], score.kind);
      if (b > 0) {
        boost = std::max(boost, b);
        position = static_cast<double>(i + 1);
      }
    }
    if (score.score > 0 || boost > 0.1) score.score = std::min(1.0, score.score + boost);
    double rank = score.score + (score.score > 0 ? 1e-4 * position : 0);
    ranked.emplace_back(rank, score);
  }
  // Stable: on a tie the order above decides (the more specific outputs first).
  std::stable_sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  scores.clear();
  for (auto& [rank, score] : ranked) scores.push_back(score);
  return scores;
}

std::string kind_of(const std::vector<KindScore>& scores) {
  if (scores.empty() || scores.front().score < k_threshold) return "unknown";
  return scores.front().kind;
}

std::string detect_kind(const CleanedPaste& paste) { return kind_of(score_kinds(paste)); }

}  // namespace tfwsl::diagnose
