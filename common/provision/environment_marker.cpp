#include "common/provision/environment_marker.hpp"

#include <fmt/format.h>

#include <optional>
#include <vector>

#include "common/util/ascii.hpp"
#include "common/version/version_spec.hpp"

namespace tfwsl::provision {
namespace {

struct MarkerToken {
  enum class Kind { open, close, string, name, op, end } kind = Kind::end;
  std::string text;
};

bool is_name_char(char c) { return ascii_is_alnum(c) || c == '_' || c == '.'; }

Result<std::vector<MarkerToken>> tokenize(std::string_view marker) {
  std::vector<MarkerToken> out;
  std::size_t i = 0;
  while (i < marker.size()) {
    const char c = marker[i];
    if (ascii_is_space(c)) {
      ++i;
    } else if (c == '(' || c == ')') {
      out.push_back({c == '(' ? MarkerToken::Kind::open : MarkerToken::Kind::close, std::string(1, c)});
      ++i;
    } else if (c == '"' || c == '\'') {
      const auto close = marker.find(c, i + 1);
      if (close == std::string_view::npos)
        return make_error(ErrorCode::parse, fmt::format("an unterminated string in '{}'", marker));
      out.push_back({MarkerToken::Kind::string, std::string(marker.substr(i + 1, close - i - 1))});
      i = close + 1;
    } else if (c == '<' || c == '>' || c == '=' || c == '!' || c == '~') {
      std::size_t end = i;
      while (end < marker.size() && std::string_view("<>=!~").find(marker[end]) != std::string_view::npos) ++end;
      out.push_back({MarkerToken::Kind::op, std::string(marker.substr(i, end - i))});
      i = end;
    } else if (is_name_char(c)) {
      std::size_t end = i;
      while (end < marker.size() && is_name_char(marker[end])) ++end;
      out.push_back({MarkerToken::Kind::name, std::string(marker.substr(i, end - i))});
      i = end;
    } else {
      return make_error(ErrorCode::parse, fmt::format("'{}' in '{}' is not part of a marker", c, marker));
    }
  }
  out.push_back({MarkerToken::Kind::end, {}});
  return out;
}

bool is_comparison(std::string_view op) {
  return op == "==" || op == "!=" || op == "<" || op == "<=" || op == ">" || op == ">=" || op == "~=" || op == "===";
}

// packaging's _eval_op: a version specifier when op+rhs is one (then lhs must be a version), else
// Python's string operators; ~= on strings has none.
Result<bool> compare(const std::string& lhs, const std::string& op, const std::string& rhs) {
  if (op == "in") return rhs.find(lhs) != std::string::npos;
  if (op == "not in") return rhs.find(lhs) == std::string::npos;
  if (op != "===") {
    if (auto spec = VersionSpec::parse(op + rhs); spec && spec->clauses().size() == 1) {
      auto version = Version::parse(lhs);
      return version && spec->clauses().front().allows(*version);  // pre-releases count (prereleases=True)
    }
  }
  if (op == "==" || op == "===") return lhs == rhs;
  if (op == "!=") return lhs != rhs;
  if (op == "<") return lhs < rhs;
  if (op == "<=") return lhs <= rhs;
  if (op == ">") return lhs > rhs;
  if (op == ">=") return lhs >= rhs;
  return make_error(ErrorCode::parse,
                    fmt::format("'{}' {} '{}' compares no versions, and strings have no {}", lhs, op, rhs, op));
}

// marker_or := marker_and ('or' marker_and)*; marker_and := expr ('and' expr)*;
// expr := '(' marker_or ')' | value op value. Every comparison is evaluated (no short cut), as
// packaging does: an unknown variable anywhere makes the whole marker unknown.
class MarkerParser {
 public:
  MarkerParser(std::vector<MarkerToken> tokens, const MarkerEnvironment& env, std::string_view marker)
      : m_tokens(std::move(tokens)), m_env(env), m_marker(marker) {}

  Result<bool> parse_all() {
    auto value = parse_or();
    if (!value) return value;
    if (peek().kind != MarkerToken::Kind::end) return fail(fmt::format("'{}' after a complete marker", peek().text));
    return value;
  }

 private:
  const MarkerToken& peek() const { return m_tokens[m_pos]; }
  bool next_is_word(std::string_view word) const {
    return peek().kind == MarkerToken::Kind::name && peek().text == word;
  }
  tl::unexpected<Error> fail(const std::string& why) const {
    return make_error(ErrorCode::parse, fmt::format("cannot evaluate the marker '{}': {}", m_marker, why));
  }

  Result<bool> parse_or() {
    auto value = parse_and();
    while (value && next_is_word("or")) {
      ++m_pos;
      auto rhs = parse_and();
      if (!rhs) return rhs;
      value = *value || *rhs;
    }
    return value;
  }

  Result<bool> parse_and() {
    auto value = parse_expression();
    while (value && next_is_word("and")) {
      ++m_pos;
      auto rhs = parse_expression();
      if (!rhs) return rhs;
      value = *value && *rhs;
    }
    return value;
  }

  Result<bool> parse_expression() {
    if (peek().kind == MarkerToken::Kind::open) {
      ++m_pos;
      auto value = parse_or();
      if (!value) return value;
      if (peek().kind != MarkerToken::Kind::close) return fail("'(' without its ')'");
      ++m_pos;
      return value;
    }
    auto lhs = parse_value();
    if (!lhs) return tl::unexpected(lhs.error());
    auto op = parse_operator();
    if (!op) return tl::unexpected(op.error());
    auto rhs = parse_value();
    if (!rhs) return tl::unexpected(rhs.error());
    auto result = compare(*lhs, *op, *rhs);
    if (!result) return fail(result.error().message);
    return result;
  }

  Result<std::string> parse_operator() {
    const MarkerToken t = peek();
    if (t.kind == MarkerToken::Kind::op && is_comparison(t.text)) {
      ++m_pos;
      return t.text;
    }
    if (next_is_word("in")) {
      ++m_pos;
      return std::string("in");
    }
    if (next_is_word("not") && m_tokens[m_pos + 1].kind == MarkerToken::Kind::name &&
        m_tokens[m_pos + 1].text == "in") {
      m_pos += 2;
      return std::string("not in");
    }
    return fail(t.kind == MarkerToken::Kind::end ? "it ends where an operator belongs"
                                                 : fmt::format("'{}' is not an operator", t.text));
  }

  Result<std::string> parse_value() {
    const MarkerToken t = peek();
    if (t.kind == MarkerToken::Kind::string) {
      ++m_pos;
      return t.text;
    }
    if (t.kind != MarkerToken::Kind::name)
      return fail(t.kind == MarkerToken::Kind::end ? "it ends where a value belongs"
                                                   : fmt::format("'{}' is not a value", t.text));
    ++m_pos;
    auto found = m_env.values.find(canonical_name(t.text));
    if (found == m_env.values.end()) return fail(fmt::format("{} is not known without starting Python", t.text));
    return found->second;
  }

  // The legacy dotted spellings packaging still reads.
  static std::string canonical_name(const std::string& name) {
    if (name == "os.name") return "os_name";
    if (name == "sys.platform") return "sys_platform";
    if (name == "platform.machine") return "platform_machine";
    if (name == "platform.version") return "platform_version";
    if (name == "platform.python_implementation" || name == "python_implementation")
      return "platform_python_implementation";
    return name;
  }

  std::vector<MarkerToken> m_tokens;
  const MarkerEnvironment& m_env;
  std::string_view m_marker;
  std::size_t m_pos = 0;
};

}  // namespace

MarkerEnvironment linux_marker_environment(std::string_view python_full_version, std::string_view machine) {
  MarkerEnvironment env;
  env.values = {{"sys_platform", "linux"},
                {"platform_system", "Linux"},
                {"os_name", "posix"},
                {"extra", ""},
                {"platform_machine", std::string(machine)}};
  if (!python_full_version.empty()) {
    env.values["python_full_version"] = std::string(python_full_version);
    // "3.11" from "3.11.7" (packaging: '.'.join(platform.python_version_tuple()[:2])).
    const auto first = python_full_version.find('.');
    const auto second = first == std::string_view::npos ? first : python_full_version.find('.', first + 1);
    env.values["python_version"] = std::string(python_full_version.substr(0, second));
  }
  return env;
}

Result<bool> evaluate_marker(std::string_view marker, const MarkerEnvironment& environment) {
  auto tokens = tokenize(marker);
  if (!tokens)
    return make_error(ErrorCode::parse, fmt::format("cannot evaluate the marker: {}", tokens.error().message));
  return MarkerParser(std::move(*tokens), environment, marker).parse_all();
}

}  // namespace tfwsl::provision
