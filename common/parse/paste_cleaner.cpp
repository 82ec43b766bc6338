#include "common/parse/paste_cleaner.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstddef>
#include <optional>
#include <utility>

#include "common/text/utf_convert.hpp"
#include "common/util/ascii.hpp"
#include "common/util/text_lines.hpp"

namespace tfwsl {
namespace {

// Commands a bare "> " may introduce (a PowerShell prompt shortened by the user). Anything else after
// "> " is a quoted line from an issue reply and keeps its text.
constexpr std::array<std::string_view, 16> k_prompt_commands = {
    "wsl",  "wsl.exe", "nvidia-smi", "nvidia-smi.exe", "python", "python3",  "py", "pip",
    "pip3", "conda",   "cat",        "type",           "sudo",   "ldconfig", "ls", "get-content"};

bool is_space(char c) { return c == ' ' || c == '\t'; }

bool starts_with_command_word(std::string_view text) {
  std::size_t end = 0;
  while (end < text.size() && !is_space(text[end])) ++end;
  std::string word;
  for (std::size_t i = 0; i < end; ++i) word += ascii_lower(text[i]);
  for (auto known : k_prompt_commands) {
    if (word == known) return true;
  }
  return false;
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Undoes the C/Go/Python escapes of a repr ("\x00", "\r", "\n", "\\"); unknown escapes stay as typed.
std::string unescape_repr(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '\\' || i + 1 >= s.size()) {
      out += s[i];
      continue;
    }
    char e = s[i + 1];
    if (e == 'x' && i + 3 < s.size() && hex_value(s[i + 2]) >= 0 && hex_value(s[i + 3]) >= 0) {
      out += static_cast<char>(hex_value(s[i + 2]) * 16 + hex_value(s[i + 3]));
      i += 3;
    } else if (e == 'r') {
      out += '\r';
      ++i;
    } else if (e == 'n') {
      out += '\n';
      ++i;
    } else if (e == 't') {
      out += '\t';
      ++i;
    } else if (e == '0') {
      out += '\0';
      ++i;
    } else if (e == '\\' || e == '"' || e == '\'') {
      out += e;
      ++i;
    } else {
      out += s[i];
    }
  }
  return out;
}

// Bytes with UTF-16LE inside (after unescaping a repr): the part before the first "X\0Y\0" run stays
// UTF-8; from there on the bytes are decoded as UTF-16LE.
std::string decode_mixed_utf16(std::string_view bytes) {
  std::size_t start = bytes.size();
  for (std::size_t i = 0; i + 3 < bytes.size(); ++i) {
    if (bytes[i] != '\0' && bytes[i + 1] == '\0' && bytes[i + 3] == '\0') {
      start = i;
      break;
    }
  }
  std::string out(bytes.substr(0, start));
  if (start < bytes.size()) out += utf16_bytes_to_utf8(bytes.substr(start));
  return out;
}

std::size_t count_occurrences(std::string_view text, std::string_view needle, std::size_t stop_at) {
  std::size_t count = 0;
  for (std::size_t pos = text.find(needle); pos != std::string_view::npos && count < stop_at;
       pos = text.find(needle, pos + needle.size())) {
    ++count;
  }
  return count;
}

// '\r\n', '\r\r\n' and a lone '\r' all end a line; NULs (UTF-16 that was not detected as such,
// e.g. half of a mixed paste) are dropped.
std::string normalise_line_ends(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '\0') continue;
    if (c == '\r') {
      while (i + 1 < text.size() && (text[i + 1] == '\r' || text[i + 1] == '\0')) ++i;
      if (i + 1 < text.size() && text[i + 1] == '\n') ++i;
      out += '\n';
      continue;
    }
    out += c;
  }
  return out;
}

// "W i n d o w s" (every other character a space): which offset holds the letters, or -1.
int spaced_offset(std::string_view line) {
  if (line.size() < 5) return -1;
  for (int offset = 0; offset < 2; ++offset) {
    bool spaced = true;
    int letters = 0;
    for (std::size_t i = static_cast<std::size_t>(offset); i < line.size(); i += 2) {
      if (i + 1 < line.size() && line[i + 1] != ' ') {
        spaced = false;
        break;
      }
      if (line[i] != ' ') ++letters;
    }
    if (offset == 1 && line[0] != ' ') spaced = false;
    if (spaced && letters >= 2) return offset;
  }
  return -1;
}

std::string despace(std::string_view line, int offset) {
  std::string out;
  for (std::size_t i = static_cast<std::size_t>(offset); i < line.size(); i += 2) out += line[i];
  return out;
}

bool is_fence(std::string_view trimmed, std::string_view& rest) {
  for (std::string_view fence : {std::string_view("```"), std::string_view("~~~")}) {
    if (trimmed.substr(0, 3) == fence) {
      std::size_t n = 3;
      while (n < trimmed.size() && trimmed[n] == fence[0]) ++n;
      rest = trim_left(trimmed.substr(n));
      return true;
    }
  }
  return false;
}

bool has_quote_marker(std::string_view line) {
  return !line.empty() && line[0] == '>' && (line.size() == 1 || line[1] == ' ' || line[1] == '>') &&
         line.substr(0, 3) != ">>>";
}

}  // namespace

namespace {

std::string trimmed_command(std::string_view rest) { return std::string(trim_right(trim_left(rest))); }

// Python: ">>> cmd"; IPython and Jupyter: "In [3]: cmd" (its "Out[3]:" is output and stays).
bool split_python_prompt(std::string_view s, std::string& command) {
  if (s.substr(0, 4) == ">>> " || s == ">>>") {
    command = trimmed_command(s.substr(3));
    return true;
  }
  if (s.substr(0, 4) != "In [") return false;
  std::size_t i = 4;
  while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
  if (i == 4 || s.substr(i, 2) != "]:") return false;
  command = trimmed_command(s.substr(i + 2));
  return true;
}

// PowerShell: "PS C:\Users\me> cmd", "PS> cmd", "PS > cmd" (a prompt shortened to its marker).
bool split_powershell_prompt(std::string_view s, std::string& command) {
  if (s.substr(0, 3) == "PS>") {
    command = trimmed_command(s.substr(3));
    return true;
  }
  if (s.substr(0, 3) != "PS ") return false;
  const std::size_t gt = s.find('>');
  if (gt == std::string_view::npos) return false;
  const std::string_view path = trim_left(s.substr(3, gt - 3));
  if (!path.empty() && !(path.size() >= 2 && path[1] == ':')) return false;
  command = trimmed_command(s.substr(gt + 1));
  return true;
}

// cmd.exe: "C:\Users\me>cmd".
bool split_cmd_prompt(std::string_view s, std::string& command) {
  if (s.size() < 4 || !((s[0] >= 'A' && s[0] <= 'Z') || (s[0] >= 'a' && s[0] <= 'z')) || s[1] != ':' || s[2] != '\\')
    return false;
  const std::size_t gt = s.find('>');
  if (gt == std::string_view::npos) return false;
  const std::string_view rest = trim_left(s.substr(gt + 1));
  if (rest.empty()) return false;
  command = std::string(trim_right(rest));
  return true;
}

// Themed prompts: oh-my-zsh's "➜  ~ git:(master) ✗ cmd" (U+279C, then the folder, the branch and a
// dirty mark) and starship's or oh-my-posh's "❯ cmd" (U+276F).
bool split_theme_prompt(std::string_view s, std::string& command) {
  constexpr std::string_view k_arrow = "\xE2\x9E\x9C";
  constexpr std::string_view k_chevron = "\xE2\x9D\xAF";
  if (s.substr(0, k_chevron.size()) == k_chevron) {
    command = trimmed_command(s.substr(k_chevron.size()));
    return true;
  }
  if (s.substr(0, k_arrow.size()) != k_arrow) return false;
  std::string_view rest = trim_left(s.substr(k_arrow.size()));
  rest = trim_left(rest.substr(std::min(rest.size(), rest.find(' '))));  // the folder
  if (rest.substr(0, 5) == "git:(") {
    const std::size_t close = rest.find(')');
    rest = close == std::string_view::npos ? std::string_view() : trim_left(rest.substr(close + 1));
  }
  if (rest.substr(0, 3) == "\xE2\x9C\x97") rest = trim_left(rest.substr(3));  // the dirty mark
  command = trimmed_command(rest);
  return true;
}

bool is_user_char(char c) { return ascii_is_alnum(c) || c == '_' || c == '-' || c == '.'; }

// POSIX: "$ cmd", "(venv) user@host:~/dir$ cmd", "root@host:/# cmd".
bool split_posix_prompt(std::string_view s, std::string& command) {
  if (s.substr(0, 2) == "$ ") {
    command = trimmed_command(s.substr(2));
    return true;
  }
  std::string_view u = s;
  if (!u.empty() && u[0] == '(') {
    std::size_t close = u.find(')');
    if (close != std::string_view::npos && close < 64) u = trim_left(u.substr(close + 1));
  }
  const std::size_t at = u.find('@');
  if (at == std::string_view::npos || at == 0 || at >= 64) return false;
  if (!std::all_of(u.begin(), u.begin() + static_cast<std::ptrdiff_t>(at), is_user_char)) return false;
  for (std::size_t i = at + 1; i < u.size() && i < at + 256; ++i) {
    if ((u[i] != '$' && u[i] != '#') || (i + 1 != u.size() && u[i + 1] != ' ')) continue;
    // "user@host:path" or "user@host path" (zsh/fish): a host never holds spaces before ':'.
    const std::string_view host = u.substr(at + 1, i - at - 1);
    const std::string_view host_name = host.substr(0, host.find(':'));
    if (host_name.empty() || host_name.find(' ') != std::string_view::npos) return false;
    command = trimmed_command(u.substr(i + 1));
    return true;
  }
  return false;
}

// split_prompt, also saying whether the prompt was a Windows shell's (PowerShell or cmd.exe).
bool split_prompt_of(std::string_view line, std::string& command, bool& windows_shell) {
  std::string_view s = trim_left(line);
  windows_shell = false;
  if (split_python_prompt(s, command)) return true;
  if (split_powershell_prompt(s, command) || split_cmd_prompt(s, command)) {
    windows_shell = true;
    return true;
  }
  if (split_theme_prompt(s, command) || split_posix_prompt(s, command)) return true;
  // A bare "> cmd": only when a known command follows (otherwise it is a quote mark).
  if (s.size() > 2 && s[0] == '>' && s[1] == ' ' && starts_with_command_word(trim_left(s.substr(2)))) {
    command = trimmed_command(s.substr(2));
    return true;
  }
  return false;
}

}  // namespace

bool split_prompt(std::string_view line, std::string& command) {
  bool windows_shell = false;
  return split_prompt_of(line, command, windows_shell);
}

namespace {

// UTF-16 shown as a repr: "C\x00o\x00p\x00y\x00..." (decoded line by line so the rest stays).
std::string undo_utf16_repr(std::string text, bool& undone) {
  if (count_occurrences(text, "\\x00", 4) < 4) return text;
  std::string rebuilt;
  rebuilt.reserve(text.size());
  for (auto line : lines_of(text)) {
    if (count_occurrences(line, "\\x00", 2) >= 2) {
      rebuilt += decode_mixed_utf16(unescape_repr(line));
      undone = true;
    } else {
      rebuilt += line;
    }
    rebuilt += '\n';
  }
  return rebuilt;
}

// An issue page copied as HTML source keeps its entities ("--exec, -e &lt;CommandLine&gt;").
std::string decode_html_entities(std::string text) {
  if (text.find("&lt;") == std::string::npos && text.find("&gt;") == std::string::npos &&
      text.find("&amp;") == std::string::npos && text.find("&quot;") == std::string::npos &&
      text.find("&#39;") == std::string::npos && text.find("&#x27;") == std::string::npos)
    return text;
  static constexpr std::array<std::pair<std::string_view, char>, 7> k_entities = {{{"&lt;", '<'},
                                                                                   {"&gt;", '>'},
                                                                                   {"&quot;", '"'},
                                                                                   {"&#39;", '\''},
                                                                                   {"&#x27;", '\''},
                                                                                   {"&#34;", '"'},
                                                                                   {"&amp;", '&'}}};
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    bool replaced = false;
    if (text[i] == '&') {
      for (const auto& [entity, c] : k_entities) {
        if (text.compare(i, entity.size(), entity) != 0) continue;
        out += c;
        i += entity.size() - 1;
        replaced = true;
        break;
      }
    }
    if (!replaced) out += text[i];
  }
  return out;
}

// A code typed by hand: "0×800701bc" with the multiplication sign (U+00D7) for the x.
std::string retype_hex_codes(std::string text) {
  static constexpr std::string_view k_times = "0\xC3\x97";
  for (std::size_t at = text.find(k_times); at != std::string::npos; at = text.find(k_times, at + 1)) {
    const char next = at + 3 < text.size() ? text[at + 3] : '\0';
    if (std::isxdigit(static_cast<unsigned char>(next))) text.replace(at + 1, 2, "x");
  }
  return text;
}

// "W i n d o w s" lines: de-space only when most lines look like that.
bool looks_spaced(const std::vector<std::string_view>& lines) {
  std::size_t candidates = 0;
  std::size_t spaced = 0;
  for (auto line : lines) {
    auto t = trim_right(line);
    if (t.size() < 3) continue;
    ++candidates;
    if (spaced_offset(t) >= 0) ++spaced;
  }
  return spaced >= 2 && spaced * 10 >= candidates * 6;
}

// "> " on most lines means the whole paste was quoted.
bool looks_quoted(const std::vector<std::string_view>& lines) {
  std::size_t non_empty = 0;
  std::size_t quoted = 0;
  for (auto line : lines) {
    if (trim_right(line).empty()) continue;
    ++non_empty;
    if (has_quote_marker(trim_left(line))) ++quoted;
  }
  return quoted >= 2 && quoted * 2 >= non_empty;
}

// "<pre>2019-12-11 ..." and "...</pre>": the HTML a page kept around a log.
std::string_view strip_pre_tags(std::string_view line) {
  for (std::string_view tag : {std::string_view("<pre>"), std::string_view("<code>")})
    if (trim_left(line).substr(0, tag.size()) == tag) line = trim_left(line).substr(tag.size());
  for (std::string_view tag : {std::string_view("</pre>"), std::string_view("</code>")})
    if (line.size() >= tag.size() && line.substr(line.size() - tag.size()) == tag)
      line = line.substr(0, line.size() - tag.size());
  return line;
}

struct LineCleaner {
  bool despace_lines = false;
  bool strip_quotes = false;
  bool after_python_prompt = false;
  bool last_was_despaced = false;
  std::optional<std::string> dropped_break;  // the last line was a prompt (its command) or a fence ("")
  std::string despaced;

  // The line as it goes into the text, or nothing when it is dropped (a prompt, a fence, ...).
  std::optional<std::string_view> clean(std::string_view raw, CleanedPaste& paste) {
    std::vector<std::string>& commands = paste.commands;
    dropped_break.reset();
    std::string_view line = trim_right(raw);
    bool was_despaced = false;
    if (despace_lines) {
      int offset = spaced_offset(line);
      if (offset >= 0) {
        despaced = despace(line, offset);
        line = trim_right(despaced);
        was_despaced = true;
      } else if (line.empty() && last_was_despaced) {
        return std::nullopt;  // the extra line end of UTF-16's "\r\0\n\0" shown as text
      }
    }
    last_was_despaced = was_despaced;
    if (strip_quotes) {
      // One level of quoting, possibly nested ("> > text").
      std::string_view t = trim_left(line);
      if (has_quote_marker(t)) {
        while (has_quote_marker(t)) t = trim_left(t.substr(1));
        line = t;
      }
    }
    line = strip_pre_tags(line);
    std::string_view trimmed = trim_left(line);
    std::string_view rest;
    if (is_fence(trimmed, rest)) {
      // "```bash" opens a block; "```Wed May 15 ..." is a fence glued to the first output line.
      dropped_break = std::string();
      if (rest.empty() || rest.find(' ') == std::string_view::npos) return std::nullopt;
      line = rest;
      trimmed = rest;
    }
    while (line.size() >= 3 && line.substr(line.size() - 3) == "```")
      line = trim_right(line.substr(0, line.size() - 3));
    std::string command;
    bool windows_shell = false;
    if (split_prompt_of(line, command, windows_shell)) {
      after_python_prompt = trimmed.substr(0, 3) == ">>>";
      if (windows_shell && !command.empty()) paste.windows_commands.push_back(command);
      dropped_break = command;
      if (!command.empty()) commands.push_back(std::move(command));
      return std::nullopt;
    }
    if (after_python_prompt && trimmed.substr(0, 4) == "... ") {
      commands.push_back(std::string(trimmed.substr(4)));
      return std::nullopt;
    }
    after_python_prompt = false;
    // A single quoted line among plain ones: keep the text without the mark.
    if (!trimmed.empty() && trimmed.front() == '>' && !strip_quotes && has_quote_marker(trimmed))
      line = trim_left(trimmed.substr(1));
    return line;
  }
};

// Several dropped lines in a row make one break; the last command typed there is the one whose
// output follows.
void add_break(std::vector<PasteBreak>& breaks, std::size_t line, std::string command) {
  if (!breaks.empty() && breaks.back().line == line) {
    if (!command.empty()) breaks.back().command = std::move(command);
    return;
  }
  breaks.push_back({line, std::move(command)});
}

}  // namespace

CleanedPaste clean_paste(std::string_view bytes) {
  CleanedPaste result;
  DecodedText decoded = decode_console_output(bytes);
  result.encoding = decoded.encoding;
  std::string text = undo_utf16_repr(std::move(decoded.text), result.utf16_rendering);
  text = retype_hex_codes(decode_html_entities(normalise_line_ends(text)));
  const std::vector<std::string_view> lines = lines_of(text);

  LineCleaner cleaner;
  cleaner.despace_lines = looks_spaced(lines);
  if (cleaner.despace_lines) result.utf16_rendering = true;
  cleaner.strip_quotes = looks_quoted(lines);
  std::string out;
  out.reserve(text.size());
  std::size_t emitted = 0;
  for (auto raw : lines) {
    auto line = cleaner.clean(raw, result);
    if (cleaner.dropped_break) add_break(result.breaks, emitted, std::move(*cleaner.dropped_break));
    if (line) {
      out.append(line->data(), line->size());
      out += '\n';
      ++emitted;
    }
  }
  result.text = std::move(out);
  return result;
}

}  // namespace tfwsl
