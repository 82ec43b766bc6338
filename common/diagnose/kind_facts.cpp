#include "common/diagnose/kind_facts.hpp"

#include <algorithm>

#include "common/compat/compat_db.hpp"
#include "common/diagnose/foreign_facts.hpp"
#include "common/diagnose/python_fit.hpp"
#include "common/diagnose/tensorflow_range.hpp"
#include "common/diagnose/text_platform.hpp"
#include "common/parse/ldconfig_parser.hpp"
#include "common/parse/line_tools.hpp"
#include "common/parse/nvidia_smi_parser.hpp"
#include "common/parse/requirements_parser.hpp"
#include "common/parse/tf_log_parser.hpp"
#include "common/parse/wsl_error_parser.hpp"
#include "common/parse/wsl_list_parser.hpp"
#include "common/parse/wsl_status_parser.hpp"
#include "common/parse/wsl_version_parser.hpp"
#include "common/util/ascii.hpp"
#include "common/version/version_spec.hpp"
#include "common/wslconfig/wslconfig_document.hpp"
#include "common/wslconfig/wslconfig_facts.hpp"

namespace tfwsl::diagnose {
namespace {

// wsl.exe's start errors are read in the head of any other paste (a Docker Desktop report, a log):
// as far as the kind recognisers look, so a 10 MB log costs no more.
constexpr std::size_t k_wsl_error_bytes = 256 * 1024;

void add_windows_build(nlohmann::json& facts, const char* key) {
  auto it = facts.find(key);
  if (it == facts.end() || !it->is_string()) return;
  if (auto build = parse::windows_build_of(it->get<std::string>())) facts["windows_build"] = *build;
}

// A .wslconfig pasted under a line of prose ("Configuration:"): what precedes the first section,
// when none of it is a key=value line, is the message's, not the file's.
std::string_view without_leading_prose(std::string_view text) {
  std::size_t at = 0;
  while (at < text.size()) {
    const std::size_t end = std::min(text.find('\n', at), text.size());
    const std::string_view line = trim_left(text.substr(at, end - at));
    if (line.starts_with("[")) return text.substr(at);
    if (line.find('=') != std::string_view::npos) return text;
    at = end + 1;
  }
  return text;
}

// And text after it: what follows the file's last setting after a blank line, when none of it is a
// section or a key=value line, is the message's ("run WSL 2.", a screenshot's link, a PowerShell
// session), not lines of the file that WSL would reject.
std::string_view without_trailing_prose(std::string_view text) {
  std::size_t end_of_file = 0;  // the end of the last line that is a section or a setting
  bool blank_since = false;
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t end = std::min(text.find('\n', at), text.size());
    const std::string_view line = trim(text.substr(at, end - at));
    if (line.starts_with("[") || line.find('=') != std::string_view::npos) {
      end_of_file = end;
      blank_since = false;
    } else if (line.empty()) {
      blank_since = end_of_file > 0;
    } else if (!blank_since && !line.starts_with("#") && !line.starts_with(";")) {
      end_of_file = end;  // a line of the file itself, malformed or not
    }
    at = end + 1;
  }
  return end_of_file == 0 ? text : text.substr(0, end_of_file);
}

nlohmann::json wslconfig_facts(std::string_view text, std::vector<wslconfig::Finding>* lint_out) {
  auto document = wslconfig::Document::parse(without_trailing_prose(without_leading_prose(text)));
  nlohmann::json facts = wslconfig::facts_of(document);
  auto lint = wslconfig::lint(document);
  nlohmann::json ids = nlohmann::json::array();
  for (const auto& finding : lint) ids.push_back(finding.id);
  facts["lint"] = std::move(ids);
  if (lint_out) *lint_out = std::move(lint);
  return facts;
}

bool has_quiet_list_command(const std::vector<std::string>& commands) {
  return std::any_of(commands.begin(), commands.end(),
                     [](const std::string& c) { return parse::is_wsl_quiet_list_command(c); });
}

nlohmann::json wsl_list_facts(std::string_view text, const std::vector<std::string>& commands) {
  auto result = parse::parse_wsl_list(text);
  if (result.distros.empty() && !result.verbose_table && has_quiet_list_command(commands))
    result = parse::parse_wsl_quiet_list(text);
  nlohmann::json facts = parse::to_json(result);
  nlohmann::json wsl1 = nlohmann::json::array();
  for (const auto& distro : result.distros) {
    if (distro.version == 1 && !parse::is_docker_desktop_distro(distro.name)) wsl1.push_back(distro.name);
  }
  facts["wsl1_distros"] = std::move(wsl1);
  add_windows_build(facts, "windows_version");
  return facts;
}

// Which way the project's GPU goes: "native" (every allowed TF is <= 2.10: native Windows still
// works), "wsl" (only >= 2.11) or "either". The fixes of one report follow one route.
void add_route(nlohmann::json& facts) {
  auto allows = facts.find("tensorflow_allows");
  if (allows == facts.end() || !allows->value("any", false)) return;
  const bool native = allows->value("native_gpu", false);
  const bool wsl = allows->value("wsl_only", false);
  facts["route"] = native && wsl ? "either" : native ? "native" : "wsl";
}

nlohmann::json requirements_facts(std::string_view text, const SignatureBase& base) {
  auto result = parse::parse_requirements(text);
  nlohmann::json facts = parse::to_json(result);
  if (const auto* tf = parse::find_tensorflow(result)) {
    facts["tensorflow_folded"] = normalize_package_name(tf->package);
    if (auto allows = tensorflow_allows(*tf, base)) facts["tensorflow_allows"] = to_json(*allows);
    if (result.python) {
      if (auto conflict = python_conflict(*result.python, *tf, builtin_compat_db()))
        facts["python_conflict"] = *conflict;
    }
  }
  add_route(facts);
  return facts;
}

// The flags of wsl.exe's start errors (and its "Wsl/..." codes) in a paste of another kind.
void add_wsl_start_errors(std::string_view text, nlohmann::json& facts) {
  const auto flags = parse::detect_wsl_errors(text.substr(0, std::min(text.size(), k_wsl_error_bytes)));
  nlohmann::json errors = nlohmann::json::object();
  if (flags.virtualization_disabled) errors["virtualization_disabled"] = true;
  if (flags.optional_component_missing) errors["optional_component_missing"] = true;
  if (flags.kernel_update_needed) errors["kernel_update_needed"] = true;
  if (flags.sparse_vhd_disabled) errors["sparse_vhd_disabled"] = true;
  if (flags.mirrored_fallback) errors["mirrored_fallback"] = true;
  if (flags.policy_override) errors["policy_override"] = true;
  nlohmann::json codes = nlohmann::json::array();
  for (const auto& code : flags.error_codes)
    if (code.starts_with("Wsl/") || code.starts_with("WSL_E_") || code.starts_with("HCS_E_")) codes.push_back(code);
  if (!codes.empty()) errors["error_codes"] = std::move(codes);
  if (!errors.empty()) facts["wsl_errors"] = std::move(errors);
}

bool is_wsl_kind(const std::string& kind) { return kind.starts_with("wsl-"); }

// The paste shows TensorFlow's CUDA libraries coming as pip wheels (`pip install tensorflow[and-cuda]`,
// the nvidia-*-cu12 packages, their site-packages/nvidia folder). pip normalises an extra's name
// (PEP 685: "and_cuda" is "and-cuda"); people also write it with a space in prose.
bool shows_pip_cuda_wheels(std::string_view text, const std::vector<std::string>& commands) {
  const std::string_view head = text.substr(0, std::min(text.size(), k_wsl_error_bytes));
  for (std::string_view marker : {"[and-cuda]", "[and_cuda]", "[and cuda]", "-cu12", "site-packages/nvidia/"}) {
    if (icontains(head, marker)) return true;
    for (const auto& c : commands)
      if (icontains(c, marker)) return true;
  }
  return false;
}

}  // namespace

nlohmann::json kind_facts(const std::string& kind, std::string_view text, const SignatureBase& base,
                          const CleanedPaste* paste, std::vector<wslconfig::Finding>* lint_out) {
  static const std::vector<std::string> k_none;
  const std::vector<std::string>& commands = paste ? paste->commands : k_none;
  nlohmann::json facts = nlohmann::json::object();
  if (kind == "wsl-list" || kind == "wsl-status") {
    facts = kind == "wsl-list" ? wsl_list_facts(text, commands) : parse::to_json(parse::parse_wsl_status(text));
    // The Windows version the paste names beside the output (`ver`, winver, a template's field).
    auto windows = parse::find_windows_version(text);
    if (!windows.empty() && !facts.contains("windows_version")) facts["windows_version"] = windows;
    add_windows_build(facts, "windows_version");
  } else if (kind == "wsl-version") {
    facts = parse::to_json(parse::parse_wsl_version(text));
    add_windows_build(facts, "windows_version");
    if (!facts.contains("windows_build")) add_windows_build(facts, "unsupported_windows_version");
  } else if (kind == "nvidia-smi") {
    facts = parse::to_json(parse::parse_nvidia_smi(text));
  } else if (kind == "tf-log") {
    const bool asks_devices = std::any_of(commands.begin(), commands.end(), [](const std::string& c) {
      return parse::contains(c, "list_physical_devices(");
    });
    facts = parse::to_json(parse::parse_tf_log(text, asks_devices));
    if (shows_pip_cuda_wheels(text, commands)) facts["pip_cuda_wheels"] = true;
  } else if (kind == "ldconfig") {
    facts = parse::to_json(parse::parse_ldconfig(text));
  } else if (kind == "wslconfig") {
    facts = wslconfig_facts(text, lint_out);
  } else if (kind == "requirements") {
    facts = requirements_facts(text, base);
  }
  if (!facts.is_object()) facts = nlohmann::json::object();
  // A .wslconfig pasted with what wsl.exe said about it at start-up ("Mirrored networking mode is not
  // supported"): those warnings are read too.
  if (!is_wsl_kind(kind)) add_wsl_start_errors(text, facts);
  // Another framework's GPU fact (sm_120), a repository key apt rejected: any paste may hold them.
  add_foreign_facts(text, base, facts);
  if (kind == "tf-log" || kind == "ldconfig" || kind == "unknown") {
    if (std::string platform = text_platform(text, commands, paste ? paste->windows_commands : k_none);
        !platform.empty())
      facts["platform"] = platform;
  }
  return facts;
}

}  // namespace tfwsl::diagnose
