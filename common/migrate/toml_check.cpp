#include "common/migrate/toml_check.hpp"

#include <fmt/format.h>

#include "common/parse/line_tools.hpp"
#include "common/util/ascii.hpp"

namespace tfwsl::migrate {
namespace {

bool is_bare_key_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.' ||
         c == ' ' || c == '\t' || c == '"' || c == '\'';
}

struct State {
  int depth = 0;              // open [ and { outside strings
  std::string_view multiline;  // the open """ or ''' delimiter, or empty
};

// Walks one line's value part; returns a problem or nothing, updating the open brackets.
std::optional<std::string> walk(std::string_view text, State& state) {
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (!state.multiline.empty()) {
      auto close = text.find(state.multiline, i);
      if (close == std::string_view::npos) return std::nullopt;
      i = close + 2;
      state.multiline = {};
      continue;
    }
    char c = text[i];
    if (c == '#') return std::nullopt;
    if (c == '"' || c == '\'') {
      if (text.substr(i, 3) == "\"\"\"" || text.substr(i, 3) == "'''") {
        state.multiline = text.substr(i, 3);
        i += 2;
        continue;
      }
      std::size_t j = i + 1;
      while (j < text.size() && text[j] != c) j += (c == '"' && text[j] == '\\') ? 2 : 1;
      if (j >= text.size()) return std::string("a string is not closed on its line");
      i = j;
      continue;
    }
    if (c == '[' || c == '{') ++state.depth;
    if (c == ']' || c == '}') {
      if (--state.depth < 0) return std::string("a closing bracket has no opening one");
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> toml_problem(std::string_view text) {
  State state;
  int number = 0;
  for (std::string_view raw : parse::lines_of(text)) {
    ++number;
    std::string_view line = trim_with_nbsp(raw);
    auto fail = [number](const std::string& what) { return fmt::format("line {}: {}", number, what); };
    if (!state.multiline.empty() || state.depth > 0) {
      if (auto problem = walk(line, state)) return fail(*problem);
      continue;
    }
    if (line.empty() || line[0] == '#') continue;
    if (line[0] == '[') {
      auto close = line.rfind(']');
      if (close == std::string_view::npos) return fail("a table header is not closed with ']'");
      auto after = trim_with_nbsp(line.substr(close + 1));
      if (!after.empty() && after[0] != '#') return fail("text after a table header");
      continue;
    }
    auto eq = line.find('=');
    if (eq == std::string_view::npos || eq == 0) return fail(fmt::format("'{}' is neither a table header nor key = value", line.substr(0, 60)));
    for (char c : line.substr(0, eq)) {
      if (!is_bare_key_char(c)) return fail(fmt::format("'{}' is not a key", trim_with_nbsp(line.substr(0, eq))));
    }
    auto value = trim_with_nbsp(line.substr(eq + 1));
    if (value.empty()) return fail("a key has no value");
    if (auto problem = walk(value, state)) return fail(*problem);
  }
  if (!state.multiline.empty()) return std::string("a multi-line string is not closed before the end");
  if (state.depth > 0) return std::string("an array or inline table is not closed before the end");
  return std::nullopt;
}

}  // namespace tfwsl::migrate
