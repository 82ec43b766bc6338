#include "common/parse/setup_py_reader.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "common/parse/setup_py_lexer.hpp"

namespace tfwsl::parse {
namespace {

using setup_py::Token;

// ---- values ---------------------------------------------------------------------------------
struct Value {
  struct Entry;  // one key of a dict (below: a pair<string, Value> would need Value complete here)
  enum class Kind { string, list, dict, file, file_text, file_lines, computed } kind = Kind::computed;
  std::string text;  // string: its value; file*: the path; computed: why
  int line = 0;
  std::vector<Value> items;  // list / tuple
  std::vector<Entry> keys;   // dict, in order

  static Value computed(std::string why, int line);
};

struct Value::Entry {
  std::string key;
  Value value;
};
Value Value::computed(std::string why, int line) {
  Value v;
  v.text = std::move(why);
  v.line = line;
  return v;
}

// ---- expressions ----------------------------------------------------------------------------
class Reader {
 public:
  Reader(const std::vector<Token>& tokens, std::map<std::string, Value>& names) : m_tokens(tokens), m_names(names) {}

  std::size_t at = 0;

  const Token& peek(std::size_t ahead = 0) const { return m_tokens[std::min(at + ahead, m_tokens.size() - 1)]; }
  bool is_op(std::string_view op, std::size_t ahead = 0) const {
    return peek(ahead).kind == Token::Kind::op && peek(ahead).text == op;
  }

  Value expression() {
    Value left = postfix(primary());
    while (is_op("+") || is_op("/") || is_op("%")) {
      const std::string op = peek().text;
      ++at;
      Value right = postfix(primary());
      left = combine(left, op, right);
    }
    return left;
  }

  // Skips to the matching close of the bracket just passed.
  void skip_group() {
    int depth = 1;
    while (depth > 0 && peek().kind != Token::Kind::end) {
      if (is_op("(") || is_op("[") || is_op("{")) ++depth;
      if (is_op(")") || is_op("]") || is_op("}")) --depth;
      ++at;
    }
  }

  // `name=value, ...` up to the closing parenthesis (the opening one already passed).
  std::vector<std::pair<std::string, Value>> call_arguments() {
    std::vector<std::pair<std::string, Value>> args;
    while (!is_op(")") && peek().kind != Token::Kind::end) {
      std::string key;
      if (peek().kind == Token::Kind::name && is_op("=", 1)) {
        key = peek().text;
        at += 2;
      }
      args.emplace_back(key, expression());
      if (!is_op(",") && !is_op(")")) {  // a generator or something this reader does not follow
        const int line = peek().line;
        while (!is_op(",") && !is_op(")") && peek().kind != Token::Kind::end) {
          if (is_op("(") || is_op("[") || is_op("{")) {
            ++at;
            skip_group();
          } else {
            ++at;
          }
        }
        args.back().second = Value::computed("an expression this reader does not follow", line);
      }
      if (is_op(",")) ++at;
    }
    if (is_op(")")) ++at;
    return args;
  }

 private:
  Value primary() {
    const Token& t = peek();
    const int line = t.line;
    if (t.kind == Token::Kind::string) {
      ++at;
      std::string text = t.text;
      while (peek().kind == Token::Kind::string) text += m_tokens[at++].text;  // "a" "b": one string
      return {Value::Kind::string, text, line, {}, {}};
    }
    if (t.kind == Token::Kind::fstring) {
      ++at;
      return Value::computed("an f-string", line);
    }
    if (t.kind == Token::Kind::name) {
      ++at;
      return name_value(t.text, line);
    }
    if (is_op("[") || is_op("(")) return sequence(is_op("[") ? "]" : ")", line);
    if (is_op("{")) return dict(line);
    ++at;
    return Value::computed("an expression this reader does not follow", line);
  }

  Value name_value(const std::string& name, int line) {
    std::string dotted = name;
    // os.path.join, pathlib.Path, setuptools.setup, io.open, codecs.open: one callee.
    if (name == "os" || name == "pathlib" || name == "setuptools" || name == "io" || name == "codecs") {
      while (is_op(".") && peek(1).kind == Token::Kind::name) {
        dotted += "." + peek(1).text;
        at += 2;
      }
    }
    if (is_op("(")) {
      ++at;
      return call(dotted, line);
    }
    auto known = m_names.find(dotted);
    if (known != m_names.end()) return known->second;
    return Value::computed(fmt::format("'{}' is not a literal assigned at module level", dotted), line);
  }

  Value call(const std::string& callee, int line) {
    auto args = call_arguments();
    const Value* first = args.empty() ? nullptr : &args.front().second;
    if ((callee == "open" || callee == "io.open" || callee == "codecs.open" || callee == "Path" ||
         callee == "pathlib.Path") &&
        first && first->kind == Value::Kind::string)
      return {Value::Kind::file, first->text, line, {}, {}};
    if (callee == "os.path.join") {
      std::string path;
      for (const auto& [key, v] : args) {
        if (v.kind == Value::Kind::string) path += (path.empty() ? "" : "/") + v.text;
      }
      return path.empty() ? Value::computed("a path built at run time", line)
                          : Value{Value::Kind::string, path, line, {}, {}};
    }
    if (callee == "dict") {
      Value d{Value::Kind::dict, "", line, {}, {}};
      for (auto& [key, v] : args) {
        if (!key.empty()) d.keys.push_back({key, std::move(v)});
      }
      return d;
    }
    if ((callee == "list" || callee == "tuple") && first && first->kind != Value::Kind::computed) return *first;
    return Value::computed(fmt::format("the result of {}()", callee), line);
  }

  Value sequence(const char* close, int line) {
    ++at;
    Value list{Value::Kind::list, "", line, {}, {}};
    while (!is_op(close) && peek().kind != Token::Kind::end) {
      list.items.push_back(expression());
      if (peek().kind == Token::Kind::name && peek().text == "for") {  // a comprehension
        skip_group();
        return Value::computed("a comprehension", line);
      }
      if (is_op(","))
        ++at;
      else if (!is_op(close)) {
        skip_group();
        return Value::computed("an expression this reader does not follow", line);
      }
    }
    ++at;
    if (std::string_view(close) == ")" && list.items.size() == 1) return list.items.front();  // (expr): not a tuple
    return list;
  }

  Value dict(int line) {
    ++at;
    Value d{Value::Kind::dict, "", line, {}, {}};
    while (!is_op("}") && peek().kind != Token::Kind::end) {
      Value key = expression();
      if (!is_op(":")) {
        skip_group();
        return Value::computed("a set or dict this reader does not follow", line);
      }
      ++at;
      Value value = expression();
      if (key.kind == Value::Kind::string) d.keys.push_back({key.text, std::move(value)});
      if (is_op(","))
        ++at;
      else if (!is_op("}")) {
        skip_group();
        return Value::computed("a comprehension", line);
      }
    }
    ++at;
    return d;
  }

  Value postfix(Value v) {
    for (;;) {
      if (is_op("[")) {
        ++at;
        Value index = expression();
        if (is_op("]"))
          ++at;
        else
          skip_group();
        v = subscript(v, index);
      } else if (is_op(".") && peek(1).kind == Token::Kind::name) {
        const std::string method = peek(1).text;
        at += 2;
        std::vector<std::pair<std::string, Value>> args;
        if (is_op("(")) {
          ++at;
          args = call_arguments();
        }
        v = method_value(v, method, args);
      } else {
        return v;
      }
    }
  }

  static Value subscript(const Value& v, const Value& index) {
    if (v.kind == Value::Kind::dict && index.kind == Value::Kind::string) {
      for (const auto& [key, value] : v.keys) {
        if (key == index.text) return value;
      }
    }
    if (v.kind == Value::Kind::computed) return v;
    return Value::computed("a subscript this reader does not follow", v.line);
  }

  static Value method_value(const Value& v, const std::string& method,
                            const std::vector<std::pair<std::string, Value>>& args) {
    using K = Value::Kind;
    if ((v.kind == K::file && (method == "read" || method == "read_text")) ||
        (v.kind == K::file_text && method == "strip"))
      return {K::file_text, v.text, v.line, {}, {}};
    if ((v.kind == K::file && method == "readlines") ||
        (v.kind == K::file_text && (method == "splitlines" || method == "split")))
      return {K::file_lines, v.text, v.line, {}, {}};
    if (v.kind == K::string && (method == "strip" || method == "lower")) return v;
    if (v.kind == K::string && method == "split") {
      const std::string sep = args.empty() || args.front().second.kind != K::string ? " " : args.front().second.text;
      Value list{K::list, "", v.line, {}, {}};
      std::size_t start = 0;
      while (start <= v.text.size()) {
        std::size_t end = v.text.find(sep, start);
        if (end == std::string::npos) end = v.text.size();
        const std::string part = v.text.substr(start, end - start);
        if (!part.empty()) list.items.push_back({K::string, part, v.line, {}, {}});
        start = end + sep.size();
      }
      return list;
    }
    if (v.kind == K::computed) return v;
    return Value::computed(fmt::format("the result of .{}()", method), v.line);
  }

  static Value combine(const Value& left, const std::string& op, const Value& right) {
    using K = Value::Kind;
    if (op == "+" && left.kind == K::list && right.kind == K::list) {
      Value out = left;
      out.items.insert(out.items.end(), right.items.begin(), right.items.end());
      return out;
    }
    if (op == "+" && left.kind == K::string && right.kind == K::string)
      return {K::string, left.text + right.text, left.line, {}, {}};
    if (op == "/" && right.kind == K::string && (left.kind == K::computed || left.kind == K::file))
      return {K::file, right.text, right.line, {}, {}};
    if (left.kind == K::computed) return left;
    if (right.kind == K::computed) return right;
    return Value::computed(fmt::format("an expression with '{}'", op), left.line);
  }

  const std::vector<Token>& m_tokens;
  std::map<std::string, Value>& m_names;
};

// ---- module level ---------------------------------------------------------------------------
struct Block {
  int indent;
  bool counts;  // a `with` or `try` body runs whenever the module does; an if / def / except body may not
};

void add_list(RequirementsResult& result, const Value& v, const std::string& keyword, const std::string& group) {
  using K = Value::Kind;
  if (v.kind == K::file_lines) {
    result.includes.push_back(v.text);
    result.notes.push_back(
        fmt::format("setup.py:{} {} reads {}: its requirements are read from that file", v.line, keyword, v.text));
    return;
  }
  if (v.kind == K::string) {
    add_list(result, Value{K::list, "", v.line, {v}, {}}, keyword, group);
    return;
  }
  if (v.kind != K::list) {
    result.notes.push_back(fmt::format("setup.py:{} {} is computed ({}): not read", v.line, keyword,
                                       v.kind == K::computed ? v.text : "not a list"));
    return;
  }
  for (const Value& item : v.items) {
    if (item.kind == K::list || item.kind == K::file_lines) {
      add_list(result, item, keyword, group);
    } else if (item.kind != K::string) {
      result.notes.push_back(
          fmt::format("setup.py:{} an item of {} is computed ({}): not read", item.line, keyword, item.text));
    } else if (auto req = parse_requirement(item.text, false, item.line)) {
      req->group = group;
      result.requirements.push_back(std::move(*req));
    }
  }
}

void read_setup_arguments(Reader& reader, RequirementsResult& result) {
  for (auto& [key, value] : reader.call_arguments()) {
    if (key == "install_requires") add_list(result, value, key, "");
    if (key == "tests_require") add_list(result, value, key, "tests");
    if (key == "setup_requires") add_list(result, value, key, "build-system");
    if (key == "extras_require") {
      if (value.kind == Value::Kind::dict) {
        for (const auto& [extra, list] : value.keys) add_list(result, list, "extras_require[" + extra + "]", extra);
      } else {
        result.notes.push_back(
            fmt::format("setup.py:{} extras_require is computed ({}): not read", value.line, value.text));
      }
    }
    if (key == "python_requires" && value.kind == Value::Kind::string && !result.python) {
      DeclaredRequirement python;
      python.package = "python";
      for (char c : value.text) {
        if (c != ' ') python.spec += c;
      }
      python.line = value.line;
      result.python = std::move(python);
    }
  }
}

}  // namespace

bool read_setup_py(std::string_view text, RequirementsResult& result) {
  const std::vector<Token> tokens = setup_py::lex(text);
  std::map<std::string, Value> names;
  Reader reader(tokens, names);
  std::vector<Block> blocks;
  bool found = false;
  while (reader.peek().kind != Token::Kind::end) {
    const Token& first = reader.peek();
    if (first.kind == Token::Kind::newline) {
      ++reader.at;
      continue;
    }
    const int indent = first.indent < 0 ? 0 : first.indent;
    while (!blocks.empty() && blocks.back().indent >= indent) blocks.pop_back();
    const bool counts = std::all_of(blocks.begin(), blocks.end(), [](const Block& b) { return b.counts; });
    const std::size_t start = reader.at;
    if (first.kind == Token::Kind::name &&
        (first.text == "with" || first.text == "try" || first.text == "if" || first.text == "else" ||
         first.text == "elif" || first.text == "except" || first.text == "def" || first.text == "for" ||
         first.text == "class" || first.text == "finally" || first.text == "while")) {
      const bool body_counts = first.text == "with" || first.text == "try" || first.text == "finally";
      // `with open("requirements.txt") as f:` names the file f.
      if (first.text == "with" && counts) {
        ++reader.at;
        Value handle = reader.expression();
        if (reader.peek().kind == Token::Kind::name && reader.peek().text == "as" &&
            reader.peek(1).kind == Token::Kind::name) {
          names[reader.peek(1).text] = handle;
        }
      }
      blocks.push_back({indent, body_counts});
    } else if (counts && first.kind == Token::Kind::name && reader.is_op("=", 1)) {
      const std::string name = first.text;
      reader.at += 2;
      names[name] = reader.expression();
    } else if (counts && first.kind == Token::Kind::name && (first.text == "setup" || first.text == "setuptools") &&
               (reader.is_op("(", 1) ||
                (reader.is_op(".", 1) && reader.peek(2).text == "setup" && reader.is_op("(", 3)))) {
      reader.at += first.text == "setup" ? 2 : 4;
      read_setup_arguments(reader, result);
      found = true;
    }
    // The rest of the logical line (a `:` block header, a call, what was not read).
    if (reader.at == start) ++reader.at;
    while (reader.peek().kind != Token::Kind::newline && reader.peek().kind != Token::Kind::end) ++reader.at;
  }
  return found;
}

}  // namespace tfwsl::parse
