#include "common/diagnose/explain_engine.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <set>

#include "common/core/terminal_style.hpp"
#include "common/diagnose/kind_detector.hpp"
#include "common/diagnose/kind_facts.hpp"
#include "common/diagnose/paste_parts.hpp"
#include "common/diagnose/text_subject.hpp"
#include "common/parse/paste_cleaner.hpp"
#include "common/util/text_lines.hpp"
#include "common/util/visible_text.hpp"

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

std::string shorten(std::string_view line) {
  while (!line.empty() && (line.front() == ' ' || line.front() == '\t')) line.remove_prefix(1);
  if (line.size() <= 160) return std::string(line);
  // Cut on a UTF-8 boundary.
  std::size_t cut = 157;
  while (cut > 0 && (static_cast<unsigned char>(line[cut]) & 0xC0) == 0x80) --cut;
  return std::string(line.substr(0, cut)) + "...";
}

bool pattern_hits(const TextPattern& pattern, const std::string& lowered, std::string_view capped) {
  if (lowered.find(pattern.needle) == std::string::npos) return false;
  if (!pattern.regex) return true;
  // The regex only sees a window around each occurrence of its needle: bounded work per line
  // whatever its length (std::regex backtracks and recurses per character).
  std::size_t occurrences = 0;
  for (std::size_t at = lowered.find(pattern.needle); at != std::string::npos && occurrences < k_regex_tries;
       at = lowered.find(pattern.needle, at + 1), ++occurrences) {
    std::size_t from = at > k_regex_before ? at - k_regex_before : 0;
    std::string_view window = capped.substr(from, k_regex_before + pattern.needle.size() + k_regex_after);
    if (std::regex_search(window.begin(), window.end(), *pattern.regex)) return true;
  }
  return false;
}

struct TextHits {
  std::vector<bool> hit;
  std::vector<std::string> evidence;  // "line N: ..." of the first hit
};

// One pass over the lines, each signature checked until it has matched.
TextHits scan_text(const std::string& text, const std::string& kind, const std::vector<Signature>& signatures) {
  TextHits hits{std::vector<bool>(signatures.size(), false), std::vector<std::string>(signatures.size())};
  std::vector<std::size_t> pending;
  for (std::size_t i = 0; i < signatures.size(); ++i) {
    if (signatures[i].applies_to(kind) && !signatures[i].patterns.empty()) pending.push_back(i);
  }
  std::string lowered;
  std::size_t line_number = 0;
  for (std::string_view line : lines_of(text)) {
    ++line_number;
    if (pending.empty()) break;
    std::string_view capped = line.substr(0, std::min(line.size(), k_literal_line_cap));
    lowered.assign(capped.begin(), capped.end());
    for (char& c : lowered) {
      if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    }
    for (auto it = pending.begin(); it != pending.end();) {
      const auto& patterns = signatures[*it].patterns;
      if (std::any_of(patterns.begin(), patterns.end(),
                      [&](const TextPattern& p) { return pattern_hits(p, lowered, capped); })) {
        hits.hit[*it] = true;
        hits.evidence[*it] = fmt::format("line {}: {}", line_number, shorten(line));
        it = pending.erase(it);
      } else {
        ++it;
      }
    }
  }
  return hits;
}

// A fact as text for a summary or fix: strings as they are, lists joined by ", ".
std::string fact_text(const nlohmann::json& value) {
  if (value.is_string()) return value.get<std::string>();
  if (value.is_array()) {
    std::string out;
    for (const auto& item : value) out += (out.empty() ? "" : ", ") + fact_text(item);
    return out;
  }
  return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// "%{python_conflict.python}" -> that fact; "?" when the paste did not give it.
std::string with_facts(const std::string& text, const nlohmann::json& facts) {
  std::string out;
  std::size_t pos = 0;
  for (std::size_t open = text.find("%{"); open != std::string::npos; open = text.find("%{", pos)) {
    const std::size_t close = text.find('}', open);
    if (close == std::string::npos) break;
    out += text.substr(pos, open - pos);
    const std::string path = text.substr(open + 2, close - open - 2);
    const nlohmann::json* node = &facts;
    for (std::size_t start = 0; node && start <= path.size();) {
      std::size_t dot = std::min(path.find('.', start), path.size());
      auto it = node->is_object() ? node->find(path.substr(start, dot - start)) : node->end();
      node = node->is_object() && it != node->end() ? &*it : nullptr;
      start = dot + 1;
    }
    out += node ? fact_text(*node) : "?";
    pos = close + 1;
  }
  return out + text.substr(pos);
}

// Facts conditions, then `unless`, then one finding per id (the first entry that fired). Fallback
// entries (explain.unrecognised) only count when nothing else was found.
void add_findings(const std::vector<Signature>& signatures, const TextHits& hits, Explanation& out, bool fallback) {
  std::vector<bool> fired(signatures.size(), false);
  std::set<std::string> fired_ids;
  for (std::size_t i = 0; i < signatures.size(); ++i) {
    const Signature& sig = signatures[i];
    if (sig.fallback != fallback || !sig.applies_to(out.kind)) continue;
    if (!sig.patterns.empty() && !hits.hit[i]) continue;
    if (!std::all_of(sig.when.begin(), sig.when.end(),
                     [&out](const Condition& c) { return condition_holds(c, out.facts); }))
      continue;
    fired[i] = true;
    fired_ids.insert(sig.id);
  }
  const bool windows = out.facts.value("platform", "") == "windows";
  std::set<std::string> reported;
  for (std::size_t i = 0; i < signatures.size(); ++i) {
    if (!fired[i]) continue;
    const Signature& sig = signatures[i];
    bool cancelled = std::any_of(sig.unless.begin(), sig.unless.end(),
                                 [&fired_ids](const std::string& id) { return fired_ids.count(id) > 0; });
    if (cancelled || !reported.insert(sig.id).second) continue;
    const std::string& fix = windows && !sig.fix_windows.empty() ? sig.fix_windows : sig.fix;
    out.findings.push_back(
        {sig.id, sig.severity, with_facts(sig.summary, out.facts), with_facts(fix, out.facts), hits.evidence[i]});
    if (!sig.about.empty() && out.about.empty()) {
      out.about = sig.about;
      out.about_name = sig.about_name;
    }
  }
}

// A text about another framework or tool gets no TensorFlow verdict: TensorFlow's and the
// requirements' findings go (a PyTorch "no kernel image is available" is not TensorFlow's); what
// it says about the machine (wsl.*, gpu.*, apt.*) stays true and stays.
void drop_tensorflow_verdicts(Explanation& out) {
  if (out.about.empty()) return;
  std::erase_if(out.findings, [](const Finding& f) { return f.id.starts_with("tf.") || f.id.starts_with("req."); });
}

// A text whose subject is another framework or tool by the weighing of text_subject.hpp, where no
// signature named one: the finding says which, and what the weighing saw. A machine's own output
// (nvidia-smi, wsl.exe, ldconfig, a .wslconfig) read whole is about that machine whoever runs on it
// (an Ollama user's nvidia-smi table is nvidia-smi's); a problem of the machine found in the text
// (libcuda.so off the loader path, a driver too old) stops TensorFlow as well, so it weighs as one
// more line naming TensorFlow.
void add_subject_finding(std::string_view text, double kind_score, const SignatureBase& base, Explanation& out) {
  const bool machine_output = out.kind != "unknown" && out.kind != "requirements" && out.kind != "tf-log";
  if (machine_output && kind_score >= 0.9) return;
  const bool found_other = std::any_of(out.findings.begin(), out.findings.end(),
                                       [](const Finding& f) { return f.severity != Severity::info; });
  const bool machine_problem = std::any_of(out.findings.begin(), out.findings.end(), [](const Finding& f) {
    return f.severity != Severity::info && (f.id.starts_with("libcuda.") || f.id.starts_with("gpu.") ||
                                            f.id.starts_with("wsl.") || f.id.starts_with("wslconfig."));
  });
  const std::optional<SubjectReading> reading =
      foreign_subject(text, base.text_subjects(), found_other, machine_problem ? 1 : 0);
  if (!reading) return;
  const TextSubject& subject = *reading->subject;
  const std::string summary =
      subject.kind == TextSubject::Kind::framework
          ? fmt::format("a text about {}, not TensorFlow: it names {} on {} line(s), TensorFlow on {}", subject.name,
                        subject.name, reading->subject_lines, reading->tensorflow_lines)
          : fmt::format("{}'s output, not TensorFlow's: nothing in the text names TensorFlow", subject.name);
  out.findings.push_back({"explain.not-tensorflow", Severity::warning, summary, subject.fix,
                          fmt::format("line {}: {}", reading->evidence_line, shorten(reading->evidence_text))});
  out.about = subject.subject;
  out.about_name = subject.name;
}

// The .wslconfig linter's findings: evidence for the ids the base maps, and the ids it does not.
void add_lint_findings(const std::vector<wslconfig::Finding>& lint, Explanation& out) {
  std::set<std::string> reported;
  for (auto& finding : out.findings) {
    reported.insert(finding.id);
    for (const auto& l : lint) {
      if (l.id == finding.id && finding.evidence.empty())
        finding.evidence = l.line > 0 ? fmt::format("line {}: {}", l.line, l.summary) : l.summary;
    }
  }
  for (const auto& l : lint) {
    if (!reported.insert(l.id).second) continue;
    Severity severity = l.severity == wslconfig::Severity::error     ? Severity::error
                        : l.severity == wslconfig::Severity::warning ? Severity::warning
                                                                     : Severity::info;
    out.findings.push_back({l.id, severity, l.summary, l.fix, l.line > 0 ? fmt::format("line {}", l.line) : ""});
  }
}

// A paste with several outputs (`wsl --status` then `wsl --version`, an error then nvidia-smi):
// the kind comes from one part, the facts from every part that another recogniser also read well.
// Only these plain facts are taken over, and never over one the chosen kind already has.
void add_facts_of_other_parts(const CleanedPaste& paste, const std::vector<KindScore>& scores,
                              const SignatureBase& base, Explanation& out) {
  static const std::vector<std::pair<std::string, std::vector<std::string>>> k_parts = {
      {"wsl-status", {"default_distribution", "default_version"}},
      {"wsl-version", {"wsl_version", "kernel_version", "windows_version", "windows_build"}},
      {"nvidia-smi", {"driver_version", "cuda_version", "gpus"}}};
  for (const auto& part : k_parts) {
    const std::string& kind = part.first;  // a named variable, not a binding: clang 14 cannot capture those
    const std::vector<std::string>& keys = part.second;
    if (kind == out.kind) continue;
    auto score = std::find_if(scores.begin(), scores.end(), [&](const KindScore& s) { return s.kind == kind; });
    if (score == scores.end() || score->score < 0.75) continue;
    const nlohmann::json other = kind_facts(kind, paste.text, base, &paste, nullptr);
    for (const auto& key : keys) {
      if (other.contains(key) && !out.facts.contains(key)) out.facts[key] = other[key];
    }
  }
}

}  // namespace

nlohmann::json facts_for_kind(const std::string& kind, std::string_view text, const SignatureBase& base) {
  return kind_facts(kind, text, base, nullptr, nullptr);
}

namespace {

double score_of(const std::vector<KindScore>& scores, const std::string& kind) {
  auto it = std::find_if(scores.begin(), scores.end(), [&kind](const KindScore& s) { return s.kind == kind; });
  return it == scores.end() ? 0.0 : it->score;
}

// The paste read as `kind`: its facts (and those of the other parts), then the findings.
Explanation explain_as(const std::string& kind, std::string_view bytes, const CleanedPaste& paste,
                       const std::vector<KindScore>& scores, const SignatureBase& base) {
  Explanation out;
  out.commands = paste.commands;
  out.encoding = to_string(paste.encoding);
  out.kind = kind;
  std::vector<wslconfig::Finding> lint;
  // A .wslconfig saved as UTF-16 or with a BOM is itself a finding: give the linter the bytes.
  bool raw_wslconfig = out.kind == "wslconfig" && paste.encoding != ConsoleEncoding::utf8;
  out.facts = kind_facts(out.kind, raw_wslconfig ? bytes : std::string_view(paste.text), base, &paste, &lint);
  add_facts_of_other_parts(paste, scores, base, out);

  const auto& signatures = base.signatures();
  const TextHits hits = scan_text(paste.text, out.kind, signatures);
  add_findings(signatures, hits, out, false);
  if (out.about.empty()) add_subject_finding(paste.text, score_of(scores, out.kind), base, out);
  drop_tensorflow_verdicts(out);
  add_lint_findings(lint, out);
  // Nothing recognised and nothing found: say so, with what explain reads, rather than "nothing wrong".
  if (out.findings.empty()) add_findings(signatures, hits, out, true);
  return out;
}

int worst_severity(const std::vector<Finding>& findings) {
  int worst = 0;
  for (const auto& f : findings) {
    if (f.id == "explain.unrecognised") continue;
    worst = std::max(worst, f.severity == Severity::error ? 3 : f.severity == Severity::warning ? 2 : 1);
  }
  return worst;
}

int worst_severity(const Explanation& e) { return worst_severity(e.findings); }

// The output the paste is about: the best kind, or among kinds that fit as well the one whose
// findings are the worst.
Explanation explain_lead(std::string_view bytes, const CleanedPaste& paste, const SignatureBase& base) {
  const std::vector<KindScore> scores = score_kinds(paste);
  const std::string best = kind_of(scores);
  Explanation out = explain_as(best, bytes, paste, scores, base);
  // Another framework's text that also reads as a requirements file (a bug template's fields, a
  // pinned torch): it is that framework's, so its kind is unknown.
  if (!out.about.empty() && best != "unknown") return explain_as("unknown", bytes, paste, scores, base);
  if (best == "unknown") return out;
  // Two outputs that fit equally well (a report with an issue template's `wsl --version` lines and
  // an nvidia-smi table): the kind is the part that carries the problem, the one with the worst finding.
  for (std::size_t i = 1; i < scores.size() && scores[i].score >= scores.front().score - 0.05 && scores[i].score >= 0.5;
       ++i) {
    Explanation other = explain_as(scores[i].kind, bytes, paste, scores, base);
    if (worst_severity(other) > worst_severity(out)) out = std::move(other);
  }
  return out;
}

// "line 3: ..." of a part is line first_line + 3 of the paste, as the lead's evidence counts.
std::string evidence_in_paste(const std::string& evidence, std::size_t first_line) {
  std::size_t digits = 5;
  while (digits < evidence.size() && evidence[digits] >= '0' && evidence[digits] <= '9') ++digits;
  if (!evidence.starts_with("line ") || digits == 5) return evidence;
  return fmt::format("line {}{}", std::stoull(evidence.substr(5, digits - 5)) + first_line, evidence.substr(digits));
}

// Each output of a paste that holds several, read alone.
std::vector<ExplainedPart> explain_parts(const CleanedPaste& paste, const SignatureBase& base) {
  std::vector<ExplainedPart> parts;
  const std::vector<PasteSpan> spans = find_parts(paste);
  if (spans.size() < 2) return parts;
  for (const PasteSpan& span : spans) {
    const CleanedPaste part = part_paste(paste, span);
    Explanation read = explain_as(span.kind, part.text, part, score_kinds(part), base);
    std::erase_if(read.findings, [](const Finding& f) { return f.id == "explain.unrecognised"; });
    for (Finding& f : read.findings) f.evidence = evidence_in_paste(f.evidence, span.first_line);
    parts.push_back(
        {span.kind, span.first_line + 1, span.end_line, false, std::move(read.facts), std::move(read.findings)});
  }
  return parts;
}

// The lead is the output that explains the problem: a part whose findings are worse than the lead's
// (a WSL 1 distribution in `wsl -l -v` beside a healthy `wsl --status`) leads instead, read over the
// whole paste as the lead always is. The first part of the lead's kind is marked.
void lead_with_the_problem(std::string_view bytes, const CleanedPaste& paste, const SignatureBase& base,
                           Explanation& out) {
  const ExplainedPart* worst = nullptr;
  for (const auto& part : out.parts) {
    if (worst_severity(part.findings) > (worst ? worst_severity(worst->findings) : worst_severity(out))) worst = &part;
  }
  if (worst && worst->kind != out.kind) {
    Explanation led = explain_as(worst->kind, bytes, paste, score_kinds(paste), base);
    if (worst_severity(led) >= worst_severity(worst->findings) && led.about.empty()) {
      led.parts = std::move(out.parts);
      out = std::move(led);
    }
  }
  for (auto& part : out.parts) {
    if (part.kind == out.kind) {
      part.lead = true;
      break;
    }
  }
}

}  // namespace

Explanation explain(std::string_view bytes, const SignatureBase& base) {
  const CleanedPaste paste = clean_paste(bytes);
  Explanation out = explain_lead(bytes, paste, base);
  if (out.kind == "unknown") return out;
  out.parts = explain_parts(paste, base);
  lead_with_the_problem(bytes, paste, base, out);
  return out;
}

namespace {

nlohmann::json findings_json(const std::vector<Finding>& findings) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& f : findings) {
    nlohmann::json item = {{"id", f.id}, {"severity", to_string(f.severity)}, {"summary", f.summary}, {"fix", f.fix}};
    if (!f.evidence.empty()) item["evidence"] = f.evidence;
    out.push_back(std::move(item));
  }
  return out;
}

}  // namespace

nlohmann::json to_json(const Explanation& explanation) {
  nlohmann::json out = {
      {"kind", explanation.kind}, {"facts", explanation.facts}, {"findings", findings_json(explanation.findings)}};
  // Keys of their own, only when there is something to say: consumers of version 1 see no change.
  if (!explanation.about.empty()) out["about"] = {{"subject", explanation.about}, {"name", explanation.about_name}};
  if (!explanation.parts.empty()) {
    nlohmann::json parts = nlohmann::json::array();
    for (const auto& part : explanation.parts) {
      parts.push_back({{"kind", part.kind},
                       {"lines", {{"first", part.first_line}, {"last", part.last_line}}},
                       {"lead", part.lead},
                       {"facts", part.facts},
                       {"findings", findings_json(part.findings)}});
    }
    out["parts"] = std::move(parts);
  }
  return out;
}

namespace {

std::string explain_facts_text(const Explanation& explanation, bool verbose) {
  std::string out = "facts:\n";
  for (const auto& [key, value] : explanation.facts.items()) {
    std::string shown = value.is_string() ? value.get<std::string>()
                                          : value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    if (!verbose && shown.size() > 300) shown = shown.substr(0, 297) + "...";
    out += fmt::format("  {}: {}\n", visible_text(key), visible_text(shown));
  }
  return out;
}

std::string severity_mark(Severity severity, bool color) {
  const char* mark = severity == Severity::error ? "\u2717" : severity == Severity::warning ? "!" : "\u2713";
  if (!color) return mark;
  const char* tint = severity == Severity::error     ? terminal_style::k_red
                     : severity == Severity::warning ? terminal_style::k_yellow
                                                     : terminal_style::k_green;
  return std::string(tint) + mark + terminal_style::k_reset;
}

}  // namespace

namespace {

// The findings, errors first, then warnings, then information: what to fix first reads first.
std::string findings_text(const std::vector<Finding>& findings, bool color, std::string_view indent) {
  std::string out;
  for (Severity severity : {Severity::error, Severity::warning, Severity::info}) {
    for (const auto& f : findings) {
      if (f.severity != severity) continue;
      out += fmt::format("{}{} {} [{}]: {}\n", indent, severity_mark(severity, color), f.id, to_string(f.severity),
                         visible_text(f.summary));
      if (!f.evidence.empty()) out += fmt::format("{}    seen: {}\n", indent, visible_text(f.evidence));
      if (!f.fix.empty()) out += fmt::format("{}    fix: {}\n", indent, visible_text(f.fix));
    }
  }
  return out;
}

// "parts:" and each output's lines and kind; the findings of each but the lead, reported above.
std::string parts_text(const std::vector<ExplainedPart>& parts, bool color) {
  std::string out = fmt::format("parts: {} outputs in this paste\n", parts.size());
  for (const auto& part : parts) {
    out += fmt::format("  lines {}-{}: {}", part.first_line, part.last_line, part.kind);
    if (part.lead) {
      out += " (above)\n";
    } else if (part.findings.empty()) {
      out += ": nothing wrong found\n";
    } else {
      out += "\n" + findings_text(part.findings, color, "    ");
    }
  }
  return out;
}

}  // namespace

std::string render_text(const Explanation& explanation, const ExplainTextOptions& options) {
  std::string out = fmt::format("kind: {}\n", explanation.kind);
  if (!explanation.about.empty()) out += fmt::format("about: {}, not TensorFlow\n", explanation.about_name);
  if (options.verbose) {
    out += fmt::format("encoding: {}\n", explanation.encoding);
    for (const auto& command : explanation.commands) out += fmt::format("command seen: {}\n", visible_text(command));
  }
  if (!explanation.facts.empty()) out += explain_facts_text(explanation, options.verbose);
  if (explanation.findings.empty()) {
    out += severity_mark(Severity::info, options.color) + " nothing wrong found\n";
  } else {
    out += "findings:\n" + findings_text(explanation.findings, options.color, "");
  }
  if (!explanation.parts.empty()) out += parts_text(explanation.parts, options.color);
  return out;
}

int exit_code_for(const Explanation& explanation) {
  int code = 0;
  auto count = [&code](const std::vector<Finding>& findings) {
    for (const auto& f : findings) {
      if (f.severity == Severity::error) code = 2;
      if (f.severity == Severity::warning) code = std::max(code, 1);
    }
  };
  count(explanation.findings);
  for (const auto& part : explanation.parts) count(part.findings);
  return code;
}

}  // namespace tfwsl::diagnose
