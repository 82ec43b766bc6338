#include "common/diagnose/explain_engine.hpp"

#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "common/diagnose/kind_detector.hpp"
#include "common/diagnose/tensorflow_range.hpp"
#include "common/parse/ldconfig_parser.hpp"
#include "common/parse/nvidia_smi_parser.hpp"
#include "common/parse/paste_cleaner.hpp"
#include "common/parse/requirements_parser.hpp"
#include "common/parse/tf_log_parser.hpp"
#include "common/parse/wsl_list_parser.hpp"
#include "common/parse/wsl_status_parser.hpp"
#include "common/parse/wsl_version_parser.hpp"
#include "common/wslconfig/wslconfig_document.hpp"
#include "common/wslconfig/wslconfig_facts.hpp"
#include "common/wslconfig/wslconfig_lint.hpp"

namespace tfwsl::diagnose {
namespace {

// Regexes look at a window around their needle (this much before it and after it), at most
// k_regex_tries times per line: std::regex recurses per character and would blow the stack (and the
// time budget) on a multi-megabyte line. profiles/signatures.yaml states the same rule.
constexpr std::size_t k_regex_before = 128;
constexpr std::size_t k_regex_after = 512;
constexpr std::size_t k_regex_tries = 8;
// Literals look at this much: enough for any real log line, bounded for garbage.
constexpr std::size_t k_literal_line_cap = 65536;

void add_windows_build(nlohmann::json& facts, const char* key) {
  auto it = facts.find(key);
  if (it == facts.end() || !it->is_string()) return;
  if (auto build = parse::windows_build_of(it->get<std::string>())) facts["windows_build"] = *build;
}

nlohmann::json wslconfig_facts(std::string_view text, std::vector<wslconfig::Finding>* lint_out) {
  auto document = wslconfig::Document::parse(text);
  nlohmann::json facts = wslconfig::facts_of(document);
  auto lint = wslconfig::lint(document);
  nlohmann::json ids = nlohmann::json::array();
  for (const auto& finding : lint) ids.push_back(finding.id);
  facts["lint"] = std::move(ids);
  if (lint_out) *lint_out = std::move(lint);
  return facts;
}

std::string shorten(std::string_view line) {
  while (!line.empty() && (line.front() == ' ' || line.front() == '\t')) line.remove_prefix(1);
  if (line.size() <= 160) return std::string(line);
  // Cut on a UTF-8 boundary.
  std::size_t cut = 157;
  while (cut > 0 && (static_cast<unsigned char>(line[cut]) & 0xC0) == 0x80) --cut;
  return std::string(line.substr(0, cut)) + "...";
}

bool has_quiet_list_command(const std::vector<std::string>& commands) {
  return std::any_of(commands.begin(), commands.end(), [](const std::string& c) { return parse::is_wsl_quiet_list_command(c); });
}

nlohmann::json facts_with_lint(const std::string& kind, std::string_view text, const SignatureBase& base,
                               std::vector<wslconfig::Finding>* lint_out, const std::vector<std::string>& commands = {}) {
  nlohmann::json facts = nlohmann::json::object();
  if (kind == "wsl-list") {
    auto result = parse::parse_wsl_list(text);
    if (result.distros.empty() && !result.verbose_table && has_quiet_list_command(commands))
      result = parse::parse_wsl_quiet_list(text);
    facts = parse::to_json(result);
    nlohmann::json wsl1 = nlohmann::json::array();
    for (const auto& distro : result.distros) {
      if (distro.version == 1 && !parse::is_docker_desktop_distro(distro.name)) wsl1.push_back(distro.name);
    }
    facts["wsl1_distros"] = std::move(wsl1);
    add_windows_build(facts, "windows_version");
  } else if (kind == "wsl-status") {
    facts = parse::to_json(parse::parse_wsl_status(text));
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
    facts = parse::to_json(parse::parse_tf_log(text));
  } else if (kind == "ldconfig") {
    facts = parse::to_json(parse::parse_ldconfig(text));
  } else if (kind == "wslconfig") {
    facts = wslconfig_facts(text, lint_out);
  } else if (kind == "requirements") {
    auto result = parse::parse_requirements(text);
    facts = parse::to_json(result);
    if (const auto* tf = parse::find_tensorflow(result)) {
      facts["tensorflow_folded"] = parse::fold_package_name(tf->package);
      if (auto allows = tensorflow_allows(*tf, base)) facts["tensorflow_allows"] = *allows;
    }
  }
  if (!facts.is_object()) facts = nlohmann::json::object();
  return facts;
}

}  // namespace

nlohmann::json facts_for_kind(const std::string& kind, std::string_view text, const SignatureBase& base) {
  return facts_with_lint(kind, text, base, nullptr);
}

Explanation explain(std::string_view bytes, const SignatureBase& base) {
  Explanation out;
  CleanedPaste paste = clean_paste(bytes);
  out.commands = paste.commands;
  out.encoding = to_string(paste.encoding);
  out.kind = detect_kind(paste);
  std::vector<wslconfig::Finding> lint;
  // A .wslconfig saved as UTF-16 or with a BOM is itself a finding: give the linter the bytes.
  bool raw_wslconfig = out.kind == "wslconfig" && paste.encoding != ConsoleEncoding::utf8;
  out.facts = facts_with_lint(out.kind, raw_wslconfig ? bytes : std::string_view(paste.text), base, &lint, paste.commands);

  // Text signatures: one pass over the lines, each signature checked until it has matched.
  const auto& signatures = base.signatures();
  std::vector<std::size_t> pending;
  for (std::size_t i = 0; i < signatures.size(); ++i) {
    if (signatures[i].applies_to(out.kind) && !signatures[i].patterns.empty()) pending.push_back(i);
  }
  std::vector<std::string> evidence(signatures.size());
  std::vector<bool> text_hit(signatures.size(), false);
  std::string lowered;
  std::size_t line_number = 0;
  for (std::string_view line : split_lines(paste.text)) {
    ++line_number;
    if (pending.empty()) break;
    std::string_view capped = line.substr(0, std::min(line.size(), k_literal_line_cap));
    lowered.assign(capped.begin(), capped.end());
    for (char& c : lowered) {
      if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    }
    for (auto it = pending.begin(); it != pending.end();) {
      const Signature& sig = signatures[*it];
      bool hit = false;
      for (const auto& pattern : sig.patterns) {
        if (lowered.find(pattern.needle) == std::string::npos) continue;
        if (!pattern.regex) {
          hit = true;
          break;
        }
        // The regex only sees a window around each occurrence of its needle: bounded work per
        // line whatever its length (std::regex backtracks and recurses per character).
        std::size_t occurrences = 0;
        for (std::size_t at = lowered.find(pattern.needle); at != std::string::npos && occurrences < k_regex_tries;
             at = lowered.find(pattern.needle, at + 1), ++occurrences) {
          std::size_t from = at > k_regex_before ? at - k_regex_before : 0;
          std::string_view window = capped.substr(from, k_regex_before + pattern.needle.size() + k_regex_after);
          if (std::regex_search(window.begin(), window.end(), *pattern.regex)) {
            hit = true;
            break;
          }
        }
        if (hit) break;
      }
      if (hit) {
        text_hit[*it] = true;
        evidence[*it] = fmt::format("line {}: {}", line_number, shorten(line));
        it = pending.erase(it);
      } else {
        ++it;
      }
    }
  }

  // Facts conditions, then `unless`, then one finding per id (the first entry that fired).
  std::vector<bool> fired(signatures.size(), false);
  std::set<std::string> fired_ids;
  for (std::size_t i = 0; i < signatures.size(); ++i) {
    const Signature& sig = signatures[i];
    if (!sig.applies_to(out.kind)) continue;
    if (!sig.patterns.empty() && !text_hit[i]) continue;
    bool holds = std::all_of(sig.when.begin(), sig.when.end(),
                             [&out](const Condition& c) { return condition_holds(c, out.facts); });
    if (!holds) continue;
    fired[i] = true;
    fired_ids.insert(sig.id);
  }
  std::set<std::string> reported;
  for (std::size_t i = 0; i < signatures.size(); ++i) {
    if (!fired[i]) continue;
    const Signature& sig = signatures[i];
    bool cancelled = std::any_of(sig.unless.begin(), sig.unless.end(),
                                 [&fired_ids](const std::string& id) { return fired_ids.count(id) > 0; });
    if (cancelled || !reported.insert(sig.id).second) continue;
    Finding finding{sig.id, sig.severity, sig.summary, sig.fix, evidence[i]};
    for (const auto& l : lint) {
      if (l.id == sig.id && finding.evidence.empty()) {
        finding.evidence = l.line > 0 ? fmt::format("line {}: {}", l.line, l.summary) : l.summary;
      }
    }
    out.findings.push_back(std::move(finding));
  }
  // The .wslconfig linter knows more ids than the base maps: keep them rather than lose them.
  for (const auto& l : lint) {
    if (!reported.insert(l.id).second) continue;
    Severity severity = l.severity == wslconfig::Severity::error     ? Severity::error
                        : l.severity == wslconfig::Severity::warning ? Severity::warning
                                                                     : Severity::info;
    out.findings.push_back({l.id, severity, l.summary, l.fix, l.line > 0 ? fmt::format("line {}", l.line) : ""});
  }
  return out;
}

nlohmann::json to_json(const Explanation& explanation) {
  nlohmann::json findings = nlohmann::json::array();
  for (const auto& f : explanation.findings) {
    nlohmann::json item = {{"id", f.id}, {"severity", to_string(f.severity)}, {"summary", f.summary}, {"fix", f.fix}};
    if (!f.evidence.empty()) item["evidence"] = f.evidence;
    findings.push_back(std::move(item));
  }
  return {{"kind", explanation.kind}, {"facts", explanation.facts}, {"findings", std::move(findings)}};
}

std::string render_text(const Explanation& explanation) {
  std::string out = fmt::format("kind: {}\n", explanation.kind);
  if (!explanation.facts.empty()) {
    out += "facts:\n";
    for (const auto& [key, value] : explanation.facts.items()) {
      std::string shown = value.is_string() ? value.get<std::string>() : value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
      if (shown.size() > 300) shown = shown.substr(0, 297) + "...";
      out += fmt::format("  {}: {}\n", key, shown);
    }
  }
  if (explanation.findings.empty()) {
    out += "\u2713 nothing wrong found\n";
    return out;
  }
  out += "findings:\n";
  // Errors first, then warnings, then information: what to fix first reads first.
  for (Severity severity : {Severity::error, Severity::warning, Severity::info}) {
    const char* mark = severity == Severity::error ? "\u2717" : severity == Severity::warning ? "!" : "\u2713";
    for (const auto& f : explanation.findings) {
      if (f.severity != severity) continue;
      out += fmt::format("{} {} [{}]: {}\n", mark, f.id, to_string(f.severity), f.summary);
      if (!f.evidence.empty()) out += fmt::format("    seen: {}\n", f.evidence);
      out += fmt::format("    fix: {}\n", f.fix);
    }
  }
  return out;
}

int exit_code_for(const Explanation& explanation) {
  int code = 0;
  for (const auto& f : explanation.findings) {
    if (f.severity == Severity::error) return 2;
    if (f.severity == Severity::warning) code = 1;
  }
  return code;
}

}  // namespace tfwsl::diagnose
