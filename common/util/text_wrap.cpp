#include "common/util/text_wrap.hpp"

#include <algorithm>
#include <array>

namespace tfwsl {
namespace {

bool is_continuation_byte(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

std::vector<std::string> words_of(std::string_view paragraph) {
  std::vector<std::string> words;
  std::size_t i = 0;
  while (i < paragraph.size()) {
    while (i < paragraph.size() && paragraph[i] == ' ') ++i;
    std::size_t end = paragraph.find(' ', i);
    if (end == std::string_view::npos) end = paragraph.size();
    if (end > i) words.emplace_back(paragraph.substr(i, end - i));
    i = end;
  }
  return words;
}

// The quote a word opens ("'wsl" or "(`tfwsl"), or 0.
char opening_quote(const std::string& word) {
  std::size_t k = word.find_first_not_of("(\"");
  if (k == std::string::npos || k + 1 >= word.size()) return 0;
  return word[k] == '\'' || word[k] == '`' ? word[k] : 0;
}

bool closes_quote(const std::string& word, char quote) {
  std::size_t end = word.find_last_not_of(".,;:)\"");
  return end != std::string::npos && word[end] == quote;
}

bool ends_clause(const std::string& word) {
  const char last = word.back();
  return last == ',' || last == ';' || last == ')' || last == '.' || last == ':';
}

// Prose that follows a command ("wsl --shutdown so WSL ..."), never one of its arguments.
bool resumes_prose(const std::string& word) {
  static const std::array<std::string_view, 34> k_prose = {
      "then",  "and",   "or",     "so",  "for", "in", "if",     "to",    "from", "with",   "the",   "a",
      "an",    "it",    "its",    "is",  "as",  "on", "when",   "which", "that", "until",  "again", "once",
      "where", "after", "before", "but", "not", "by", "inside", "this",  "each", "instead"};
  if (word.front() == '(' || (word.front() == '-' && word.size() == 1)) return true;
  return std::find(k_prose.begin(), k_prose.end(), word) != k_prose.end();
}

// The index after the quoted span that starts at words[i], or i + 1 when it does not close.
std::size_t quoted_span_end(const std::vector<std::string>& words, std::size_t i) {
  const char quote = opening_quote(words[i]);
  if (quote == 0) return i + 1;
  const std::size_t open = words[i].find(quote);
  if (words[i].find(quote, open + 1) != std::string::npos) return i + 1;  // it closes in the same word
  for (std::size_t j = i + 1; j < words.size(); ++j)
    if (closes_quote(words[j], quote)) return j + 1;
  return i + 1;
}

std::size_t command_end(const std::vector<std::string>& words, std::size_t i) {
  std::size_t j = quoted_span_end(words, i);
  if (opening_quote(words[i]) != 0 || ends_clause(words[j - 1])) return j;  // 'wsl --shutdown': the quotes end it
  while (j < words.size() && !resumes_prose(words[j])) {
    j = quoted_span_end(words, j);
    if (ends_clause(words[j - 1])) break;
  }
  return j;
}

std::string joined(const std::vector<std::string>& words, std::size_t from, std::size_t to) {
  std::string atom = words[from];
  for (std::size_t k = from + 1; k < to; ++k) atom += " " + words[k];
  return atom;
}

// Byte offsets of each code point's start, escape sequences skipped.
std::vector<std::size_t> code_point_starts(std::string_view text) {
  std::vector<std::size_t> starts;
  for (std::size_t i = 0; i < text.size(); ++i)
    if (!is_continuation_byte(text[i])) starts.push_back(i);
  return starts;
}

}  // namespace

std::size_t display_width(std::string_view text) {
  std::size_t columns = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\x1b' && i + 1 < text.size() && text[i + 1] == '[') {
      std::size_t end = text.find_first_of("ABCDEFGHJKSTfmsuhlK", i + 2);
      if (end == std::string_view::npos) break;
      i = end;
      continue;
    }
    if (!is_continuation_byte(text[i])) ++columns;
  }
  return columns;
}

std::vector<std::string> wrap_atoms(std::string_view paragraph, const WrapStyle& style) {
  const std::vector<std::string> words = words_of(paragraph);
  std::vector<std::string> atoms;
  for (std::size_t i = 0; i < words.size();) {
    const bool command = style.starts_command && style.starts_command(words[i]);
    const std::size_t end = command ? command_end(words, i) : quoted_span_end(words, i);
    atoms.push_back(joined(words, i, end));
    i = end;
  }
  return atoms;
}

namespace {

// An atom that is neither a command nor a path (a JSON blob, a long token) may be cut: nothing
// pastes it, and a line past the width would be cut by the terminal anyway.
bool may_cut(const std::string& atom, const WrapStyle& style) {
  if (atom.find_first_of(" /\\") != std::string::npos) return false;
  return !(style.starts_command && style.starts_command(atom));
}

// `atom` cut into pieces of at most `room` code points.
std::vector<std::string> cut(const std::string& atom, std::size_t room) {
  std::vector<std::string> pieces;
  const std::vector<std::size_t> starts = code_point_starts(atom);
  for (std::size_t i = 0; i < starts.size(); i += room) {
    const std::size_t end = i + room < starts.size() ? starts[i + room] : atom.size();
    pieces.push_back(atom.substr(starts[i], end - starts[i]));
  }
  return pieces;
}

}  // namespace

std::vector<std::string> wrap_lines(std::string_view text, const WrapStyle& style) {
  std::vector<std::string> lines;
  std::string line = style.first_indent;
  bool empty = true;
  auto flush = [&] {
    lines.push_back(line);
    line = style.hanging_indent;
    empty = true;
  };
  auto place = [&](const std::string& atom) {
    if (!empty && display_width(line) + 1 + display_width(atom) > style.width) flush();
    line += (empty ? "" : " ") + atom;
    empty = false;
  };
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    for (const auto& atom : wrap_atoms(text.substr(start, end - start), style)) {
      const std::size_t indent = display_width(style.hanging_indent);
      if (display_width(atom) + indent <= style.width || !may_cut(atom, style)) {
        place(atom);
        continue;
      }
      if (!empty) flush();
      std::string rest = atom;
      while (!rest.empty()) {
        const std::size_t used = display_width(line);
        const std::string piece = cut(rest, style.width > used + 10 ? style.width - used : 10).front();
        line += piece;
        empty = false;
        rest.erase(0, piece.size());
        if (!rest.empty()) flush();
      }
    }
    flush();
    start = end + 1;
  }
  return lines;
}

std::string wrap_text(std::string_view text, const WrapStyle& style) {
  std::string out;
  for (const auto& line : wrap_lines(text, style)) out += line + "\n";
  return out;
}

std::string shorten_middle(std::string_view text, std::size_t width) {
  const std::vector<std::size_t> starts = code_point_starts(text);
  if (starts.size() <= width) return std::string(text);
  const std::string_view gap = "...";
  if (width <= gap.size()) return std::string(text.substr(0, width < starts.size() ? starts[width] : text.size()));
  const std::size_t room = width - gap.size();
  const std::size_t tail = room / 2, head = room - tail;
  return std::string(text.substr(0, starts[head])) + std::string(gap) +
         std::string(text.substr(starts[starts.size() - tail]));
}

std::string shorten_fields(std::string_view text, std::size_t width, std::string_view separator) {
  if (display_width(text) <= width || separator.empty()) return shorten_middle(text, width);
  std::vector<std::string_view> fields;
  for (std::size_t from = 0;;) {
    const std::size_t at = text.find(separator, from);
    fields.push_back(text.substr(from, at == std::string_view::npos ? std::string_view::npos : at - from));
    if (at == std::string_view::npos) break;
    from = at + separator.size();
  }
  for (std::size_t kept = fields.size() - 2; fields.size() > 2 && kept >= 1; --kept) {
    std::string line;
    for (std::size_t i = 0; i < kept; ++i) line += std::string(i == 0 ? "" : separator) + std::string(fields[i]);
    line += std::string(separator) + "..." + std::string(separator) + std::string(fields.back());
    if (display_width(line) <= width) return line;
  }
  return shorten_middle(text, width);
}

}  // namespace tfwsl
