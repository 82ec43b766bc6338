#include "common/parse/setup_py_lexer.hpp"

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "common/util/ascii.hpp"

namespace tfwsl::parse::setup_py {
namespace {

bool is_name_char(char c) { return ascii_is_alnum(c) || c == '_'; }

std::string unescape(std::string_view raw, bool is_raw) {
  if (is_raw) return std::string(raw);
  std::string out;
  for (std::size_t i = 0; i < raw.size(); ++i) {
    if (raw[i] != '\\' || i + 1 == raw.size()) {
      out += raw[i];
      continue;
    }
    const char next = raw[++i];
    out += next == 'n' ? '\n' : next == 't' ? '\t' : next;
  }
  return out;
}

class Lexer {
 public:
  explicit Lexer(std::string_view text) : m_text(text) {}

  std::vector<Token> run() {
    std::vector<Token> out;
    bool line_start = true;
    while (m_at < m_text.size()) {
      const char c = m_text[m_at];
      if (c == '\n') {
        ++m_line;
        ++m_at;
        if (m_depth == 0 && !line_start) out.push_back({Token::Kind::newline, "", m_line - 1, 0});
        line_start = m_depth == 0 ? true : line_start;
        m_column = 0;
        continue;
      }
      if (c == ' ' || c == '\t' || c == '\r' || c == '\f') {
        ++m_at;
        ++m_column;
        continue;
      }
      if (c == '\\' && m_at + 1 < m_text.size() && m_text[m_at + 1] == '\n') {
        m_at += 2;
        ++m_line;
        continue;
      }
      if (c == '#') {
        while (m_at < m_text.size() && m_text[m_at] != '\n') ++m_at;
        continue;
      }
      Token t = next_token();
      t.indent = line_start ? m_token_column : -1;
      line_start = false;
      out.push_back(std::move(t));
    }
    out.push_back({Token::Kind::newline, "", m_line, 0});
    out.push_back({Token::Kind::end, "", m_line, 0});
    return out;
  }

 private:
  Token next_token() {
    m_token_column = m_column;
    const std::size_t start = m_at;
    const int line = m_line;
    if (is_name_char(m_text[m_at])) {
      while (m_at < m_text.size() && is_name_char(m_text[m_at])) ++m_at;
      const std::string word(m_text.substr(start, m_at - start));
      m_column += static_cast<int>(m_at - start);
      if (m_at < m_text.size() && (m_text[m_at] == '"' || m_text[m_at] == '\'') && word.size() <= 2) {
        const std::string prefix = ascii_lower(word);
        if (prefix.find_first_not_of("rbuf") == std::string::npos) return string_token(prefix, line);
      }
      return {ascii_is_digit(word[0]) ? Token::Kind::number : Token::Kind::name, word, line, 0};
    }
    if (m_text[m_at] == '"' || m_text[m_at] == '\'') return string_token("", line);
    const char c = m_text[m_at++];
    ++m_column;
    if (c == '(' || c == '[' || c == '{') ++m_depth;
    if ((c == ')' || c == ']' || c == '}') && m_depth > 0) --m_depth;
    return {Token::Kind::op, std::string(1, c), line, 0};
  }

  Token string_token(const std::string& prefix, int line) {
    const char quote = m_text[m_at];
    const bool triple = m_text.substr(m_at, 3) == std::string(3, quote);
    const std::size_t open = triple ? 3 : 1;
    std::size_t i = m_at + open;
    while (i < m_text.size()) {
      if (m_text[i] == '\\') {
        i += 2;
        continue;
      }
      if (m_text[i] == '\n') ++m_line;
      if (triple ? m_text.substr(i, 3) == std::string(3, quote) : m_text[i] == quote) break;
      if (!triple && m_text[i] == '\n') break;  // an unclosed string ends at the line
      ++i;
    }
    const std::string_view raw = m_text.substr(m_at + open, std::min(i, m_text.size()) - m_at - open);
    m_at = std::min(m_text.size(), i + open);
    m_column += static_cast<int>(raw.size() + 2 * open);
    const bool f = prefix.find('f') != std::string::npos;
    return {f ? Token::Kind::fstring : Token::Kind::string, unescape(raw, prefix.find('r') != std::string::npos), line,
            0};
  }

  std::string_view m_text;
  std::size_t m_at = 0;
  int m_line = 1;
  int m_column = 0;
  int m_token_column = 0;
  int m_depth = 0;
};

}  // namespace

std::vector<Token> lex(std::string_view text) { return Lexer(text).run(); }

}  // namespace tfwsl::parse::setup_py
