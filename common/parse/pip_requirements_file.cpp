#include "common/parse/pip_requirements_file.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <sstream>

#include "common/util/ascii.hpp"
#include "common/version/requirement_syntax.hpp"
#include "common/version/version_spec.hpp"

namespace tfwsl::parse {
namespace {

std::string strip_comment(std::string_view line) { return std::string(trim(strip_requirement_comment(line))); }

// pip's break_args_options: the requirement is the words before the first one that starts with '-'.
std::string requirement_part(const std::string& line) {
  std::istringstream in(line);
  std::string word, out;
  while (in >> word) {
    if (word.starts_with("-")) break;
    out += (out.empty() ? "" : " ") + word;
  }
  return out;
}

bool is_url(std::string_view s) { return s.find("://") != std::string_view::npos || s.starts_with("file:"); }

bool looks_like_path(std::string_view s) {
  const std::string_view head = s.substr(0, s.find(';'));
  return head.starts_with(".") || head.starts_with("/") || head.starts_with("~") || is_url(head) ||
         head.find('/') != std::string_view::npos || head.ends_with(".whl") || head.ends_with(".zip") ||
         head.ends_with(".tar.gz") || head.ends_with(".tgz") || head.ends_with(".tar.bz2");
}

PipLineKind kind_of(const std::string& requirement) {
  if (looks_like_path(requirement)) return PipLineKind::direct_reference;
  auto parsed = parse_requirement(requirement);
  if (!parsed) return PipLineKind::unparsed;
  return parsed->url.empty() ? PipLineKind::requirement : PipLineKind::direct_reference;
}

// "-r x", "-rx", "--requirement x", "--requirement=x": the value after the option's name.
std::optional<std::string> option_value(std::string_view line, std::string_view short_name,
                                        std::string_view long_name) {
  std::string_view rest;
  if (line.starts_with(long_name)) {
    rest = line.substr(long_name.size());
    if (!rest.empty() && rest.front() != '=' && !ascii_is_space(rest.front())) return std::nullopt;  // --requirements-x
  } else if (line.starts_with(short_name)) {
    rest = line.substr(short_name.size());
  } else {
    return std::nullopt;
  }
  if (!rest.empty() && rest.front() == '=') rest.remove_prefix(1);
  rest = trim(rest);
  return std::string(rest.substr(0, rest.find_first_of(" \t")));
}

}  // namespace

std::vector<PipJoinedLine> join_pip_lines(std::string_view text) {
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);
  std::vector<PipJoinedLine> out;
  std::string pending;
  int number = 0, start = 0;
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t end = text.find('\n', at);
    if (end == std::string_view::npos) end = text.size();
    std::string_view raw = text.substr(at, end - at);
    at = end + 1;
    ++number;
    if (raw.ends_with("\r")) raw.remove_suffix(1);
    const bool comment = trim(raw).starts_with("#");
    if (raw.ends_with("\\") && !comment) {
      if (pending.empty()) start = number;
      pending.append(raw.substr(0, raw.size() - 1));
      continue;
    }
    if (!pending.empty()) {
      out.push_back({pending + (comment ? " " : "") + std::string(raw), start});
      pending.clear();
    } else {
      out.push_back({std::string(raw), number});
    }
  }
  if (!pending.empty()) out.push_back({pending, start});
  return out;
}

std::optional<PipInclude> pip_include_of(std::string_view line, int number) {
  if (auto target = option_value(line, "-r", "--requirement")) return PipInclude{*target, false, number};
  if (auto constraint = option_value(line, "-c", "--constraint")) return PipInclude{*constraint, true, number};
  return std::nullopt;
}

PipFileLines parse_pip_requirements_text(std::string_view text, const std::string& file) {
  PipFileLines out;
  for (const auto& joined : join_pip_lines(text)) {
    const std::string line = strip_comment(joined.text);
    const int number = joined.line;
    if (line.empty()) continue;
    if (auto include = pip_include_of(line, number)) {
      out.includes.push_back(*include);
    } else if (option_value(line, "-e", "--editable")) {
      out.lines.push_back({PipLineKind::editable, line, file, number, false});
    } else if (!line.starts_with("-")) {  // other option lines only steer pip
      const std::string requirement = requirement_part(line);
      out.lines.push_back({kind_of(requirement), requirement, file, number, false});
    }
  }
  return out;
}

namespace {

struct IncludeWalk {
  const PipFileReader& reader;
  PipRequirementsRead out;
  std::set<std::string> seen;

  Status read(const std::string& path, bool constraint, const std::string& named_at, int depth = 0) {
    if (!seen.insert(path).second) return {};
    // Links can spell one file many ways; a chain this deep is a loop, not a project.
    if (depth > 32)
      return make_error(ErrorCode::invalid_input,
                        fmt::format("{}: -r/-c includes nest deeper than 32 files (a loop?)", named_at));
    auto text = reader(path);
    if (!text) {
      Error e = text.error();
      if (!named_at.empty()) e.message = fmt::format("{} (named by -r/-c at {})", e.message, named_at);
      return tl::unexpected(e);
    }
    out.files.push_back(path);
    const auto parsed = parse_pip_requirements_text(*text, path);
    auto next_line = parsed.lines.begin();
    // The included files' lines go where they are named, so the order is pip's.
    for (const auto& include : parsed.includes) {
      for (; next_line != parsed.lines.end() && next_line->line < include.line; ++next_line)
        add(*next_line, constraint);
      const bool as_constraint = constraint || include.constraint;
      if (is_url(include.target)) {
        add({PipLineKind::direct_reference, (include.constraint ? "-c " : "-r ") + include.target, path, include.line,
             false},
            as_constraint);
        continue;
      }
      const std::filesystem::path target(include.target);
      const std::string resolved =
          target.is_absolute()
              ? include.target
              : (std::filesystem::path(path).parent_path() / target).lexically_normal().generic_string();
      if (auto status = read(resolved, as_constraint, fmt::format("{}:{}", path, include.line), depth + 1); !status)
        return status;
    }
    for (; next_line != parsed.lines.end(); ++next_line) add(*next_line, constraint);
    return {};
  }

  void add(PipRequirementLine line, bool constraint) {
    line.constraint = constraint;
    out.lines.push_back(std::move(line));
  }
};

}  // namespace

Result<PipRequirementsRead> read_pip_requirements(const std::vector<std::string>& paths, const PipFileReader& reader) {
  IncludeWalk walk{reader, {}, {}};
  for (const auto& path : paths)
    if (auto status = walk.read(path, false, ""); !status) return tl::unexpected(status.error());
  return std::move(walk.out);
}

}  // namespace tfwsl::parse
