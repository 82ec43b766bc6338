#include "common/version/requirement_syntax.hpp"

#include <fmt/format.h>

#include "common/util/ascii.hpp"
#include "common/version/version_spec.hpp"

namespace tfwsl {
namespace {

tl::unexpected<Error> malformed(std::string why) { return make_error(ErrorCode::invalid_input, std::move(why)); }

// "[and-cuda, gpu]" at `pos`: the extras, and `pos` past the ']'.
Status read_extras(std::string_view line, std::size_t& pos, std::vector<std::string>& extras) {
  const std::size_t close = line.find(']', pos);
  if (close == std::string_view::npos) return malformed("'[' without a closing ']'");
  const std::string_view list = line.substr(pos + 1, close - pos - 1);
  std::size_t start = 0;
  while (start <= list.size()) {
    std::size_t comma = list.find(',', start);
    if (comma == std::string_view::npos) comma = list.size();
    const std::string_view extra = trim_with_nbsp(list.substr(start, comma - start));
    for (char c : extra)
      if (!is_package_name_char(c)) return malformed(fmt::format("extra '{}' contains '{}'", extra, c));
    if (!extra.empty()) extras.emplace_back(extra);
    start = comma + 1;
  }
  pos = close + 1;
  return {};
}

}  // namespace

std::string_view strip_requirement_comment(std::string_view line) {
  for (std::size_t i = 0; i < line.size(); ++i)
    if (line[i] == '#' && (i == 0 || ascii_is_space(line[i - 1]))) return line.substr(0, i);
  return line;
}

Result<RequirementParts> read_requirement_parts(std::string_view line_in) {
  std::string_view line = trim_with_nbsp(strip_requirement_comment(line_in));
  if (line.empty()) return make_error(ErrorCode::not_found, "empty or comment-only requirement line");
  if (line.front() == '-')
    return make_error(ErrorCode::not_found, fmt::format("'{}' is a pip option, not a requirement", line));
  // A requirement's own options (" --hash=...", " --config-settings ...") are pip's, not its shape.
  if (auto option = line.find(" --"); option != std::string_view::npos) line = trim_with_nbsp(line.substr(0, option));

  RequirementParts parts;
  std::size_t pos = 0;
  while (pos < line.size() && is_package_name_char(line[pos])) ++pos;
  // PEP 508: a name starts and ends with a letter or a digit.
  if (pos == 0 || !ascii_is_alnum(line.front())) return malformed("it does not start with a package name");
  parts.name = std::string(line.substr(0, pos));
  std::string_view rest = trim_with_nbsp(line.substr(pos));
  if (!rest.empty() && rest.front() == '[') {
    std::size_t at = 0;
    if (auto status = read_extras(rest, at, parts.extras); !status) return tl::unexpected(status.error());
    rest = trim_with_nbsp(rest.substr(at));
  }
  // The marker is everything after the first ';' (a URL holds one only after a blank, as PEP 508 asks).
  if (auto semi = rest.find(';'); semi != std::string_view::npos) {
    parts.marker = std::string(trim_with_nbsp(rest.substr(semi + 1)));
    if (parts.marker.empty()) return malformed("';' is not followed by an environment marker");
    rest = trim_with_nbsp(rest.substr(0, semi));
  }
  if (!rest.empty() && rest.front() == '@') {
    parts.url = std::string(trim_with_nbsp(rest.substr(1)));
    if (parts.url.empty()) return malformed("'@' is not followed by a URL");
    return parts;
  }
  if (!rest.empty() && rest.front() == '(') {
    if (rest.back() != ')') return malformed("'(' without a closing ')'");
    rest = trim_with_nbsp(rest.substr(1, rest.size() - 2));
  }
  parts.version_part = std::string(rest);
  return parts;
}

}  // namespace tfwsl
