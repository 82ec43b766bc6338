#include "common/wslconfig/wslconfig_lint.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "common/parse/line_tools.hpp"
#include "common/units/size_parser.hpp"
#include "common/util/ascii.hpp"
#include "common/util/byte_size_text.hpp"
#include "common/util/suggest.hpp"
#include "common/wslconfig/wslconfig_keys.hpp"

namespace tfwsl::wslconfig {
namespace {

bool is_known_section(const std::string& section) {
  const auto& sections = known_sections();
  return std::find(sections.begin(), sections.end(), section) != sections.end();
}

bool valid_boolean(const std::string& value) { return iequals(value, "true") || iequals(value, "false"); }

bool valid_number(const std::string& value) { return value.size() <= 18 && ascii_all_digits(value); }

std::string strip_quotes(const std::string& value) {
  if (value.size() >= 2 && value.front() == '"' && value.back() == '"') return value.substr(1, value.size() - 2);
  return value;
}

// memory=, swap=: a size WSL accepts, and for memory one that suits TensorFlow and the machine.
void lint_size(const Line& line, const std::string& value, std::size_t number, const LintOptions& options,
               std::vector<Finding>& out) {
  const auto bytes = parse_wsl_size(value);
  if (!bytes) {
    out.push_back({"wslconfig.bad-size", Severity::error, number,
                   fmt::format("{}={} is not a size WSL accepts, so WSL ignores it", line.key, line.value),
                   bytes.error().message});
    return;
  }
  if (!iequals(line.key, "memory")) return;
  if (*bytes < k_memory_low_bytes) {
    out.push_back({"wslconfig.memory-low", Severity::warning, number,
                   fmt::format("memory={} gives the WSL 2 VM less than 8 GB: tight for TensorFlow", line.value),
                   "raise it, e.g. memory=16GB (at most your physical RAM), then run wsl --shutdown"});
  }
  if (options.physical_memory_bytes && *bytes > *options.physical_memory_bytes) {
    out.push_back({"wslconfig.memory-over-ram", Severity::warning, number,
                   fmt::format("memory={} is more than this machine's {} of RAM: WSL caps it", line.value,
                               format_bytes(*options.physical_memory_bytes)),
                   // in whole GB (WSL's GB is 2^30 bytes), as a person writes it, never above the RAM
                   fmt::format("set memory to at most {}GB (the RAM)",
                               std::max<std::uint64_t>(1, *options.physical_memory_bytes >> 30))});
  }
}

// A key WSL does not know: in the other section, misspelt, or neither.
void lint_unknown_key(const Line& line, std::size_t number, std::vector<Finding>& out) {
  const std::string other = line.section == "wsl2" ? "experimental" : "wsl2";
  std::string fix;
  if (find_known_key(other, line.key)) {
    fix = fmt::format("'{}' belongs in the [{}] section: move the line there", line.key, other);
  } else if (auto guess = closest_match(line.key, key_names(line.section))) {
    fix = fmt::format("did you mean '{}'? write {}={}", *guess, *guess, line.value);
  } else {
    fix = fmt::format(
        "remove the line or check the key against the [{}] keys on learn.microsoft.com/windows/wsl/wsl-config",
        line.section);
  }
  out.push_back({"wslconfig.unknown-key", Severity::warning, number,
                 fmt::format("unknown key '{}' in [{}]: WSL ignores it", line.key, line.section), fix});
}

void lint_key(const Line& line, std::size_t number, const LintOptions& options, std::vector<Finding>& out) {
  const auto known = find_known_key(line.section, line.key);
  if (!known) {
    lint_unknown_key(line, number, out);
    return;
  }
  const std::string value = strip_quotes(line.value);
  switch (known->kind) {
    case ValueKind::size:
      lint_size(line, value, number, options, out);
      return;
    case ValueKind::boolean:
      if (!valid_boolean(value))
        out.push_back({"wslconfig.bad-value", Severity::warning, number,
                       fmt::format("{}={}: WSL expects true or false", line.key, line.value),
                       fmt::format("write {}=true or {}=false", line.key, line.key)});
      return;
    case ValueKind::number:
      if (!valid_number(value))
        out.push_back({"wslconfig.bad-value", Severity::warning, number,
                       fmt::format("{}={}: WSL expects a whole number", line.key, line.value),
                       fmt::format("write a whole number, e.g. {}=4", line.key)});
      return;
    case ValueKind::path:
      if (iequals(line.key, "kernel") && !value.empty()) {
        out.push_back(
            {"wslconfig.custom-kernel", Severity::warning, number,
             fmt::format("kernel= points at a custom kernel ({}): GPU support needs Microsoft's dxgkrnl", line.value),
             "remove the kernel= line to use the WSL kernel, unless yours is built with dxgkrnl; then wsl --shutdown"});
      }
      return;
    case ValueKind::text:
      return;
  }
}

// The steps of lint(): the file's encoding, then one a kind of line.

void lint_encoding(FileEncoding encoding, std::vector<Finding>& out) {
  switch (encoding) {
    case FileEncoding::utf8:
      break;
    case FileEncoding::invalid_utf8:
      out.push_back({"wslconfig.encoding", Severity::error, 0,
                     "the file is not valid UTF-8: WSL reads .wslconfig as UTF-8",
                     "save %UserProfile%\\.wslconfig as UTF-8: in Notepad, Save as, Encoding UTF-8"});
      break;
    default:
      out.push_back(
          {"wslconfig.encoding", Severity::error, 0,
           fmt::format("the file is {}: WSL ignores a .wslconfig that is not plain UTF-8", to_string(encoding)),
           "save %UserProfile%\\.wslconfig as UTF-8 without BOM: in Notepad, Save as, Encoding UTF-8 "
           "(PowerShell 5's > and >> write UTF-16; use Set-Content -Encoding ascii)"});
      break;
  }
}

void lint_malformed_line(const Line& line, std::size_t number, std::vector<Finding>& out) {
  const std::string_view text = trim_with_nbsp(line.content);
  std::string fix = "make it a [section] header, a key=value line or a # comment, or remove it";
  if (text.starts_with("[") && text.find(']') != std::string_view::npos) {
    const auto close = text.find(']');
    fix = fmt::format("put the section header and the setting on separate lines: {} and then {}",
                      text.substr(0, close + 1), trim_with_nbsp(text.substr(close + 1)));
  }
  out.push_back({"wslconfig.malformed-line", Severity::error, number,
                 fmt::format("line {} is not a section, a key=value or a comment: '{}'", number, text), fix});
}

void lint_section_line(const Line& line, std::size_t number, std::vector<Finding>& out) {
  if (!is_known_section(line.section)) {
    std::string fix;
    if (auto guess = closest_match(line.section, known_sections())) {
      fix = fmt::format("did you mean [{}]? the keys below it are ignored until then", *guess);
    } else if (is_wsl_conf_section(line.section)) {
      fix = fmt::format("[{}] belongs in /etc/wsl.conf inside the distribution, not in .wslconfig", line.section);
    } else {
      fix = ".wslconfig has only the [wsl2] and [experimental] sections";
    }
    out.push_back({"wslconfig.unknown-section", Severity::warning, number,
                   fmt::format("unknown section [{}]: WSL ignores its keys", line.section), fix});
  }
  if (line.inline_comment)
    out.push_back({"wslconfig.inline-comment", Severity::warning, number,
                   fmt::format("a comment follows the section header on line {}", number),
                   "move the comment to its own line starting with #"});
}

// seen: "section\nkey" (key in lower case) -> the line that first set it.
void lint_key_value_line(const Line& line, std::size_t number, const LintOptions& options,
                         std::map<std::string, std::size_t>& seen, std::vector<Finding>& out) {
  if (line.section.empty()) {
    out.push_back({"wslconfig.key-outside-section", Severity::warning, number,
                   fmt::format("{} is set before any section: WSL ignores it", line.key),
                   "put it below [wsl2] (or [experimental])"});
    return;
  }
  if (line.inline_comment)
    out.push_back(
        {"wslconfig.inline-comment", Severity::warning, number,
         fmt::format("a comment follows the value of {} on line {}: WSL may read it as part of the value", line.key,
                     number),
         fmt::format("move the comment to its own line starting with #, leaving {}={}", line.key, line.value)});
  if (!is_known_section(line.section)) return;  // already reported with the section
  if (auto [it, inserted] = seen.emplace(line.section + "\n" + ascii_lower(line.key), number); !inserted) {
    out.push_back({"wslconfig.duplicate-key", Severity::info, number,
                   fmt::format("{} is set again (first on line {}): the last one wins", line.key, it->second),
                   "remove the line that is not meant"});
  }
  lint_key(line, number, options, out);
}

}  // namespace

const char* to_string(Severity severity) {
  switch (severity) {
    case Severity::error:
      return "error";
    case Severity::warning:
      return "warning";
    case Severity::info:
      return "info";
  }
  return "info";
}

std::vector<Finding> lint(const Document& document, const LintOptions& options) {
  std::vector<Finding> out;
  lint_encoding(document.encoding(), out);
  std::map<std::string, std::size_t> seen;  // "section\nkey" -> first line
  const auto& lines = document.lines();
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const Line& line = lines[i];
    const std::size_t number = i + 1;
    switch (line.kind) {
      case LineKind::blank:
      case LineKind::comment:
        break;
      case LineKind::malformed:
        lint_malformed_line(line, number, out);
        break;
      case LineKind::section:
        lint_section_line(line, number, out);
        break;
      case LineKind::key_value:
        lint_key_value_line(line, number, options, seen, out);
        break;
    }
  }
  // Findings quote the file; they end up in JSON, which must be UTF-8.
  for (Finding& f : out) {
    f.summary = parse::valid_utf8(f.summary);
    f.fix = parse::valid_utf8(f.fix);
  }
  return out;
}

}  // namespace tfwsl::wslconfig
