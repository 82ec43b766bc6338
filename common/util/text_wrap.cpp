#include "common/util/text_wrap.hpp"

#include <algorithm>
#include <array>
#include <utility>

namespace tfwsl {
namespace {

bool is_continuation_byte(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

// The words of a paragraph and, in `gaps`, the spaces before each.
std::vector<std::string> words_of(std::string_view paragraph, std::vector<std::size_t>* gaps = nullptr) {
  std::vector<std::string> words;
  std::size_t i = 0;
  while (i < paragraph.size()) {
    const std::size_t from = i;
    while (i < paragraph.size() && paragraph[i] == ' ') ++i;
    std::size_t end = paragraph.find(' ', i);
    if (end == std::string_view::npos) end = paragraph.size();
    if (end > i) {
      words.emplace_back(paragraph.substr(i, end - i));
      if (gaps) gaps->push_back(i - from);
    }
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

std::string joined(const std::vector<std::string>& words, std::size_t from, std::size_t to,
                   const std::vector<std::size_t>* gaps = nullptr) {
  std::string atom = words[from];
  for (std::size_t k = from + 1; k < to; ++k) atom += std::string(gaps ? (*gaps)[k] : 1, ' ') + words[k];
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

namespace {

// What a line holds between two places it may break at, and the spaces before it.
struct Atom {
  std::string text;
  std::size_t gap = 1;
  const PrintedCommand* command = nullptr;  // an argument of this command
  bool ends_command = true;                 // the command's last argument (or no command)
};

std::vector<Atom> prose_atoms(std::string_view paragraph, const WrapStyle& style) {
  std::vector<std::size_t> gaps;
  const std::vector<std::string> words = words_of(paragraph, &gaps);
  std::vector<Atom> atoms;
  for (std::size_t i = 0; i < words.size();) {
    const bool command = style.starts_command && style.starts_command(words[i]);
    const std::size_t end = command ? command_end(words, i) : quoted_span_end(words, i);
    atoms.push_back({joined(words, i, end, style.as_printed ? &gaps : nullptr), style.as_printed ? gaps[i] : 1});
    i = end;
  }
  return atoms;
}

// The first of style.commands in `paragraph` at or after `from` (the longest where two start
// there), and where; nullptr when none is.
std::pair<const PrintedCommand*, std::size_t> next_command(std::string_view paragraph, std::size_t from,
                                                           const WrapStyle& style) {
  const PrintedCommand* found = nullptr;
  std::size_t at = std::string_view::npos;
  for (const auto& command : style.commands) {
    if (command.text.empty()) continue;
    const std::size_t here = paragraph.find(command.text, from);
    if (here < at || (here == at && here != std::string_view::npos && command.text.size() > found->text.size()))
      found = &command, at = here;
  }
  return {found, at};
}

// The paragraph's atoms: prose as wrap_atoms finds it, and each argument of a printed command.
std::vector<Atom> atoms_of(std::string_view paragraph, const WrapStyle& style) {
  std::vector<Atom> atoms;
  for (std::size_t from = 0;;) {
    const auto [command, at] = next_command(paragraph, from, style);
    const std::string_view prose = paragraph.substr(from, command ? at - from : std::string_view::npos);
    const std::vector<Atom> words = prose_atoms(prose, style);
    atoms.insert(atoms.end(), words.begin(), words.end());
    if (!command) return atoms;
    const std::size_t blanks = prose.size() - std::min(prose.size(), prose.find_last_not_of(' ') + 1);
    const std::vector<std::string> arguments = printed_arguments(command->shell, command->text);
    for (std::size_t k = 0; k < arguments.size(); ++k)
      atoms.push_back({arguments[k], k == 0 && style.as_printed ? blanks : 1, command, k + 1 == arguments.size()});
    from = at + command->text.size();
  }
}

}  // namespace

std::vector<std::string> wrap_atoms(std::string_view paragraph, const WrapStyle& style) {
  std::vector<std::string> atoms;
  for (auto& atom : prose_atoms(paragraph, style)) atoms.push_back(std::move(atom.text));
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
  const Atom* last = nullptr;  // the atom the line ends in; nullptr while it holds none
  auto flush = [&] {
    lines.push_back(line);
    line = style.hanging_indent;
    last = nullptr;
  };
  auto place = [&](const Atom& atom) {
    // An argument that others follow keeps room for the continuation a break after it needs.
    const std::size_t room =
        atom.command && !atom.ends_command ? display_width(line_continuation(atom.command->shell)) : 0;
    if (last && display_width(line) + atom.gap + display_width(atom.text) + room > style.width) {
      if (last->command && last->command == atom.command) line += line_continuation(atom.command->shell);
      flush();
    }
    line += (last ? std::string(atom.gap, ' ') : std::string()) + atom.text;
    last = &atom;
  };
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    const std::vector<Atom> atoms = atoms_of(text.substr(start, end - start), style);
    for (const auto& atom : atoms) {
      const std::size_t indent = display_width(style.hanging_indent);
      if (style.as_printed || atom.command || display_width(atom.text) + indent <= style.width ||
          !may_cut(atom.text, style)) {
        place(atom);
        continue;
      }
      if (last) flush();
      std::string rest = atom.text;
      while (!rest.empty()) {
        const std::size_t used = display_width(line);
        const std::string piece = cut(rest, style.width > used + 10 ? style.width - used : 10).front();
        line += piece;
        last = &atom;
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

namespace {

// Where a wrapped line's following lines start: under a table's second column (a first word, then
// two or more spaces: "  doctor      Check ...") when that is left of two thirds of the width; else
// under a list item's text ("  - x", " 3. x"); else two columns past the line's own indent `lead`.
std::size_t hanging_width(std::string_view line, std::size_t lead, std::size_t width) {
  std::size_t text = lead;
  if (line.substr(text, 1).find_first_of("-*+") == 0) {
    ++text;
  } else if (line.substr(text, 3) == "\u2022") {
    text += 3;
  } else {
    std::size_t digit = text;
    while (digit < line.size() && line[digit] >= '0' && line[digit] <= '9') ++digit;
    if (digit > text && digit < line.size() && (line[digit] == '.' || line[digit] == ')')) text = digit + 1;
  }
  if (text == lead || text >= line.size() || line[text] != ' ') text = lead;  // no list item
  text = line.find_first_not_of(' ', text);
  const std::size_t word_end = line.find(' ', text);
  const std::size_t column = line.find_first_not_of(' ', word_end);
  if (word_end != std::string_view::npos && column != std::string_view::npos && column - word_end >= 2 &&
      display_width(line.substr(0, column)) < width * 2 / 3)
    return display_width(line.substr(0, column));
  return text > lead ? display_width(line.substr(0, text)) : lead + 2;
}

}  // namespace

std::string fit_to_width(std::string_view text, const WrapStyle& style) {
  std::string out;
  for (std::size_t start = 0; start < text.size();) {
    std::size_t end = text.find('\n', start);
    const bool ends_in_newline = end != std::string_view::npos;
    if (!ends_in_newline) end = text.size();
    const std::string_view line = text.substr(start, end - start);
    const std::size_t lead = line.find_first_not_of(' ');
    if (display_width(line) <= style.width || lead == std::string_view::npos) {
      out += line;
    } else {
      WrapStyle wrapped = style;
      wrapped.first_indent = std::string(line.substr(0, lead));
      wrapped.hanging_indent = std::string(hanging_width(line, lead, style.width), ' ');
      wrapped.as_printed = true;
      const std::vector<std::string> lines = wrap_lines(line.substr(lead), wrapped);
      for (std::size_t i = 0; i < lines.size(); ++i) out += (i == 0 ? "" : "\n") + lines[i];
    }
    if (ends_in_newline) out += '\n';
    start = end + 1;
  }
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
