#include "common/parse/output_recognizer.hpp"

#include <algorithm>
#include <initializer_list>

#include "common/parse/line_tools.hpp"
#include "common/parse/nvidia_smi_parser.hpp"
#include "common/parse/wsl_list_parser.hpp"
#include "common/parse/wsl_status_parser.hpp"
#include "common/parse/wsl_version_parser.hpp"
#include "common/util/ascii.hpp"
#include "common/util/text_lines.hpp"

namespace tfwsl::parse {
namespace {

// The options of the wsl.exe invocations in the text: every word after "wsl" or "wsl.exe" on a line
// that runs it, up to the end of the line; with `first_only`, only the first word after it (the
// command wsl.exe runs: `--version` there is `wsl --version`, after `--import X` it is an option).
bool wsl_invoked_with(std::string_view text, std::initializer_list<std::string_view> options, bool first_only = false) {
  for (std::string_view line : lines_of(text)) {
    const auto words = words_of(line);
    for (std::size_t i = 0; i < words.size(); ++i) {
      std::string_view w = words[i];
      while (!w.empty() &&
             (w.front() == '(' || w.front() == '[' || w.front() == '`' || w.front() == '>' || w.front() == '"'))
        w.remove_prefix(1);
      const auto slash = w.find_last_of("\\/>");
      if (slash != std::string_view::npos) w = w.substr(slash + 1);
      if (!iequals(w, "wsl") && !iequals(w, "wsl.exe") && !w.ends_with("(wsl.exe") && !w.ends_with("([wsl.exe"))
        continue;
      for (std::size_t j = i + 1; j < words.size(); ++j) {
        std::string_view option = words[j];
        while (!option.empty() && (option.back() == ']' || option.back() == ')' || option.back() == '`' ||
                                   option.back() == '"' || option.back() == ':'))
          option.remove_suffix(1);
        for (std::string_view wanted : options)
          if (option == wanted) return true;
        if (first_only) break;
      }
    }
  }
  return false;
}

// wsl.exe rejected `option`, or the same typed with one typo ("--satus" for --status).
bool rejected(const WslErrorFlags& errors, std::string_view option) {
  return std::any_of(errors.rejected_options.begin(), errors.rejected_options.end(),
                     [&](const std::string& o) { return within_one_edit(o, option); });
}

}  // namespace

bool mentions_wsl_list_command(std::string_view text) { return wsl_invoked_with(text, {"-l", "--list"}); }
bool mentions_wsl_status_command(std::string_view text) { return wsl_invoked_with(text, {"--status"}); }
bool mentions_wsl_version_command(std::string_view text) {
  // "-v" alone is --version; after -l it is --verbose, after --import it is the WSL version to use.
  return wsl_invoked_with(text, {"--version", "-v"}, true);
}

double looks_like_wsl_list(std::string_view text) {
  const WslListResult r = parse_wsl_list(text);
  double score = 0;
  if (r.verbose_table) score = std::max(score, r.distros.empty() ? 0.6 : 0.85);
  if (r.plain_list) score = std::max(score, 0.85);
  if (r.online_list) score = std::max(score, 0.8);
  if (r.errors.no_distribution || r.errors.no_running_distribution) score = std::max(score, 0.7);
  if (mentions_wsl_list_command(text)) {
    if (r.errors.any())
      score = std::max(score, 0.65);
    else if (!r.distros.empty())
      score = std::max(score, 0.8);
  }
  // An old inbox wsl.exe rejecting -l/--list (any language), or answering with only its usage text
  // (the command at the prompt then says which one it was).
  const auto& rejected = r.errors.rejected_options;
  if (std::find(rejected.begin(), rejected.end(), "--list") != rejected.end() ||
      std::find(rejected.begin(), rejected.end(), "-l") != rejected.end())
    score = std::max(score, 0.8);
  if (r.errors.usage_text) score = std::max(score, 0.45);
  // `wsl -l -v` rows retyped without the header (or a paste that starts below it): a name, one of
  // wsl.exe's states and 1 or 2 are specific, when they are all the text holds.
  if (!r.verbose_table && !r.distros.empty() && r.distros.front().state) {
    std::size_t non_blank = 0;
    for (std::string_view line : lines_of(text))
      if (!trim_with_nbsp(line).empty()) ++non_blank;
    score = std::max(score, non_blank == r.distros.size() ? 0.7 : 0.4);
  }
  return score;
}

// `wsl --update` (inbox WSL) prints these around its "Kernel version:" line.
bool shows_update_check(std::string_view text) {
  return icontains(text, "checking for updates") || icontains(text, "no updates are available") ||
         icontains(text, "most recent version of windows subsystem for linux is already installed");
}

double looks_like_wsl_status(std::string_view text) {
  const WslStatusResult r = parse_wsl_status(text);
  double score = 0;
  if (r.default_distribution || r.default_version) score = 0.9;
  if (r.errors.kernel_update_needed) score = std::max(score, 0.7);
  // WSL cannot start at all (virtualization, a missing Windows feature, a distro launcher's
  // WslRegisterDistribution): the state of WSL itself, whichever command showed it.
  if (r.errors.virtualization_disabled || r.errors.optional_component_missing ||
      contains(text, "WslRegisterDistribution"))
    score = std::max(score, 0.75);
  // Any other "Error code: Wsl/..." below the output kinds that name it themselves (no distro: 0.7).
  if (!r.errors.error_codes.empty()) score = std::max(score, 0.65);
  if (r.kernel_version) score = std::max(score, shows_update_check(text) ? 0.7 : 0.55);
  if (rejected(r.errors, "--status")) score = std::max(score, 0.8);
  if (mentions_wsl_status_command(text) && r.errors.any()) score = std::max(score, 0.7);
  return score;
}

double looks_like_wsl_version(std::string_view text) {
  const WslVersionResult r = parse_wsl_version(text);
  double score = 0;
  const std::size_t found = r.fields_found();
  // A whole `wsl --version` block has seven labelled lines; two of them ("WSL version: ...",
  // "Kernel version: ...") are also what an issue template's environment table lists next to
  // TensorFlow's own messages, which then say more about the paste (tf-log scores 0.8 and up).
  if (found >= 3)
    score = 0.95;
  else if (found == 2)
    score = 0.75;
  else if (found == 1)
    score = 0.5;
  if (rejected(r.errors, "--version")) score = std::max(score, 0.8);
  const auto& rejected_options = r.errors.rejected_options;
  if (std::find(rejected_options.begin(), rejected_options.end(), "-v") != rejected_options.end())
    score = std::max(score, 0.6);
  if (r.errors.packaged_wsl_unsupported) score = std::max(score, 0.75);
  if (mentions_wsl_version_command(text) && r.errors.any()) score = std::max(score, 0.7);
  return score;
}

double looks_like_nvidia_smi(std::string_view text) {
  const NvidiaSmiResult r = parse_nvidia_smi(text);
  double score = 0;
  // The header line alone ("NVIDIA-SMI 546.17 Driver Version: 546.17") is what issue templates ask
  // for in their environment table; the table's frame or a GPU row makes it nvidia-smi's output.
  if (r.table_header) score = (!r.gpus.empty() || contains(text, "+----") || contains(text, "|====")) ? 0.95 : 0.75;
  if (r.query_report) score = std::max(score, 0.9);
  if (!r.gpus.empty()) score = std::max(score, 0.8);
  const auto& f = r.failures;
  if (f.cannot_communicate || f.access_blocked || f.library_mismatch || f.nvml_init_failed)
    score = std::max(score, 0.85);
  if (f.driver_not_loaded || f.no_devices || f.nvml_library_missing || f.device_handle_error)
    score = std::max(score, 0.75);
  if (f.not_found) score = std::max(score, 0.8);
  return score;
}

}  // namespace tfwsl::parse
