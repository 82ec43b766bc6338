#include "win/render/wslconfig_report.hpp"

#include <fmt/format.h>

#include "common/core/exit_codes.hpp"
#include "common/units/size_parser.hpp"
#include "common/util/byte_size_text.hpp"
#include "common/wslconfig/wslconfig_keys.hpp"

namespace tfwsl::cli {
namespace {

using nlohmann::json;

template <class T>
json or_null(const std::optional<T>& value) {
  return value ? json(*value) : json(nullptr);
}

json value_json(const wslconfig::EffectiveValue& v) {
  return {{"section", v.section},
          {"key", v.key},
          {"value", v.value},
          {"source", wslconfig::to_string(v.source)},
          {"line", v.line ? json(v.line) : json(nullptr)},
          {"ignored", or_null(v.ignored)},
          {"bytes", or_null(v.bytes)},
          {"count", or_null(v.count)},
          {"default_rule", v.default_rule.empty() ? json(nullptr) : json(v.default_rule)}};
}

json finding_json(const wslconfig::Finding& f) {
  return {{"id", f.id},
          {"severity", wslconfig::to_string(f.severity)},
          {"line", f.line ? json(f.line) : json(nullptr)},
          {"summary", f.summary},
          {"fix", f.fix}};
}

json change_json(const wslconfig::Change& c) {
  return {{"section", c.ref.section},
          {"key", c.ref.key},
          {"before", or_null(c.before)},
          {"after", or_null(c.after)},
          {"line", c.line ? json(c.line) : json(nullptr)}};
}

json apply_json(const wslconfig::ApplyOutcome& a) {
  json checks = json::array();
  for (const auto& c : a.checks)
    checks.push_back({{"key", c.key},
                      {"expected", or_null(c.expected)},
                      {"observed", or_null(c.observed)},
                      {"verdict", wslconfig::to_string(c.verdict)},
                      {"summary", c.summary}});
  return {{"waited_for_stop_ms", a.waited_for_stop.count()},
          {"running_polls", a.running_polls},
          {"observed",
           {{"mem_total_bytes", or_null(a.observed.mem_total_bytes)},
            {"swap_total_bytes", or_null(a.observed.swap_total_bytes)},
            {"processors", or_null(a.observed.processors)}}},
          {"checks", checks},
          {"all_took_effect", a.all_took_effect()}};
}

// A size WSL works out for this machine reads in GiB with its rule ("11.8 GiB [default: half of
// the 23.5 GiB RAM]"), not as the KB count WSL's syntax needs; a file's value as written.
std::string value_line(const wslconfig::EffectiveValue& v) {
  std::string shown = v.value.empty() ? "(empty)" : v.value;
  if (v.bytes && v.source == wslconfig::ValueSource::file) shown += " (" + format_bytes(*v.bytes) + ")";
  if (v.bytes && !v.default_rule.empty()) shown = format_gib(*v.bytes);
  std::string from = v.source == wslconfig::ValueSource::file ? fmt::format("file, line {}", v.line) : "default";
  if (!v.default_rule.empty()) from += ": " + v.default_rule;
  if (v.ignored)
    from += fmt::format("{} line {} has {}, which WSL ignores", v.default_rule.empty() ? ":" : ";", v.line, *v.ignored);
  const std::string name = v.section == "wsl2" ? v.key : v.section + "." + v.key;
  return fmt::format("  {:<38} {}  [{}]\n", name, shown, from);
}

std::string findings_text(const std::vector<wslconfig::Finding>& findings, bool say_none = true) {
  if (findings.empty()) return say_none ? "No problems found.\n" : "";
  std::string out;
  for (const auto& f : findings) {
    const std::string where = f.line ? fmt::format("line {}: ", f.line) : "";
    out += fmt::format("{}: {}{}\n    fix: {}\n", wslconfig::to_string(f.severity), where, f.summary, f.fix);
  }
  return out;
}

std::string overrides_text(const std::vector<doctor::Override>& overrides) {
  if (overrides.empty()) return {};
  std::string out = "Not used as written:\n";
  for (const auto& o : overrides)
    out += fmt::format("  {} = {}: {}{}\n", o.key, o.written, o.why,
                       o.effective.empty() ? "" : "; WSL uses " + o.effective);
  return out;
}

std::string show_text(const WslconfigReport& r) {
  std::string out = r.exists ? fmt::format("{} ({})\n", r.path, r.encoding)
                             : fmt::format("{} does not exist: WSL uses its defaults\n", r.path);
  out += fmt::format("What WSL uses (defaults: {}):\n", wslconfig::k_defaults_source);
  for (const auto& v : r.values) out += value_line(v);
  return out + overrides_text(r.overrides) + findings_text(r.findings);
}

}  // namespace

std::string render_change_preview(const WslconfigReport& r) {
  if (r.diff.empty()) return fmt::format("{}: nothing to change\n", r.path);
  return fmt::format("--- {}\n+++ {}\n{}", r.path, r.path, r.diff);
}

std::string render_change_outcome(const WslconfigReport& r) {
  std::string out;
  if (r.dry_run) out += "Dry run: nothing written.\n";
  if (r.reread) out += fmt::format("{} changed while this ran: the change was made to its new content.\n", r.path);
  if (r.written && r.link_target)
    out += fmt::format("{} is a link: written through to {}{}.\n", r.path, *r.link_target,
                       r.backup ? " (backup: " + *r.backup + ")" : "");
  else if (r.written)
    out += fmt::format("Written {}{}.\n", r.path, r.backup ? " (backup: " + *r.backup + ")" : "");
  out += findings_text(r.findings, false);
  // WSL reads .wslconfig only when its VM starts (issue 43, item 7: set did not say so, restore did).
  if (r.written && !r.apply)
    out +=
        "WSL uses it after a restart: wsl --shutdown (stops every running distribution), or run this again with "
        "--apply.\n";
  if (r.apply) {
    out += fmt::format("WSL restarted (stopped after {:.1f} s).\n", double(r.apply->waited_for_stop.count()) / 1000);
    for (const auto& c : r.apply->checks) out += "  " + c.summary + "\n";
  }
  return out;
}

json to_json(const WslconfigReport& r) {
  json values = json::array();
  for (const auto& v : r.values) values.push_back(value_json(v));
  json findings = json::array();
  for (const auto& f : r.findings) findings.push_back(finding_json(f));
  json j{
      {"command", r.command},
      {"file", r.path},
      {"link_target", or_null(r.link_target)},
      {"exists", r.exists},
      {"encoding", r.exists ? json(r.encoding) : json(nullptr)},
      {"host", {{"ram_bytes", or_null(r.host.ram_bytes)}, {"logical_processors", or_null(r.host.logical_processors)}}},
      {"defaults_source", std::string(wslconfig::k_defaults_source)},
      {"values", values},
      {"findings", findings}};
  if (r.command == "show") {
    json overrides = json::array();
    for (const auto& o : r.overrides)
      overrides.push_back({{"key", o.key}, {"written", o.written}, {"effective", o.effective}, {"why", o.why}});
    j["overrides"] = overrides;
    return j;
  }
  json changes = json::array();
  for (const auto& c : r.changes) changes.push_back(change_json(c));
  j["changes"] = changes;
  j["diff"] = r.diff;
  j["dry_run"] = r.dry_run;
  j["written"] = r.written;
  j["reread"] = r.reread;
  j["backup"] = or_null(r.backup);
  j["apply"] = r.apply ? apply_json(*r.apply) : json(nullptr);
  return j;
}

std::string render_text(const WslconfigReport& report) {
  return report.command == "show" ? show_text(report) : render_change_preview(report) + render_change_outcome(report);
}

int exit_code_for_findings(const std::vector<wslconfig::Finding>& findings) {
  int code = exit_code::k_ok;
  for (const auto& f : findings) {
    if (f.severity == wslconfig::Severity::error) return exit_code::k_failure;
    if (f.severity == wslconfig::Severity::warning) code = exit_code::k_warning;
  }
  return code;
}

}  // namespace tfwsl::cli
