#include "common/parse/paste_cleaner.hpp"

#include <array>
#include <cstddef>

#include "common/text/ascii.hpp"
#include "common/text/utf_convert.hpp"

namespace tfwsl {
namespace {

// Commands a bare "> " may introduce (a PowerShell prompt shortened by the user). Anything else after
// "> " is a quoted line from an issue reply and keeps its text.
constexpr std::array<std::string_view, 16> k_prompt_commands = {
    "wsl", "wsl.exe", "nvidia-smi", "nvidia-smi.exe", "python", "python3", "py", "pip", "pip3",
    "conda", "cat", "type", "sudo", "ldconfig", "ls", "get-content"};

bool is_space(char c) { return c == ' ' || c == '\t'; }

std::string_view trim_left(std::string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  return s;
}

std::string_view trim_right(std::string_view s) {
  while (!s.empty() && (is_space(s.back()) || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

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

std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

bool split_prompt(std::string_view line, std::string& command) {
  std::string_view s = trim_left(line);
  // Python and IPython prompts.
  if (s.substr(0, 4) == ">>> " || s == ">>>") {
    command = std::string(trim_right(s.substr(3)));
    command = std::string(trim_left(command));
    return true;
  }
  // PowerShell: "PS C:\Users\me> cmd", "PS> cmd".
  if (s.substr(0, 3) == "PS ") {
    std::size_t gt = s.find('>');
    if (gt != std::string_view::npos) {
      std::string_view path = s.substr(3, gt - 3);
      if (path.size() >= 2 && path[1] == ':') {
        command = std::string(trim_right(trim_left(s.substr(gt + 1))));
        return true;
      }
    }
  }
  if (s.substr(0, 3) == "PS>") {
    command = std::string(trim_right(trim_left(s.substr(3))));
    return true;
  }
  // cmd.exe: "C:\Users\me>cmd".
  if (s.size() >= 4 && ((s[0] >= 'A' && s[0] <= 'Z') || (s[0] >= 'a' && s[0] <= 'z')) && s[1] == ':' &&
      s[2] == '\\') {
    std::size_t gt = s.find('>');
    if (gt != std::string_view::npos) {
      std::string_view rest = trim_left(s.substr(gt + 1));
      if (!rest.empty()) {
        command = std::string(trim_right(rest));
        return true;
      }
    }
  }
  // POSIX: "$ cmd", "(venv) user@host:~/dir$ cmd", "root@host:/# cmd".
  if (s.substr(0, 2) == "$ ") {
    command = std::string(trim_right(trim_left(s.substr(2))));
    return true;
  }
  std::string_view u = s;
  if (!u.empty() && u[0] == '(') {
    std::size_t close = u.find(')');
    if (close != std::string_view::npos && close < 64) u = trim_left(u.substr(close + 1));
  }
  std::size_t at = u.find('@');
  if (at != std::string_view::npos && at > 0 && at < 64) {
    bool user_ok = true;
    for (std::size_t i = 0; i < at; ++i) {
      char c = u[i];
      if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
            c == '-' || c == '.')) {
        user_ok = false;
        break;
      }
    }
    if (user_ok) {
      for (std::size_t i = at + 1; i < u.size() && i < at + 256; ++i) {
        if ((u[i] == '$' || u[i] == '#') && (i + 1 == u.size() || u[i + 1] == ' ')) {
          std::string_view host = u.substr(at + 1, i - at - 1);
          // "user@host:path" or "user@host path" (zsh/fish): a host never holds spaces before ':'.
          std::size_t colon = host.find(':');
          std::string_view host_name = host.substr(0, colon);
          if (host_name.empty() || host_name.find(' ') != std::string_view::npos) break;
          command = std::string(trim_right(trim_left(u.substr(i + 1))));
          return true;
        }
      }
    }
  }
  // A bare "> cmd": only when a known command follows (otherwise it is a quote mark).
  if (s.size() > 2 && s[0] == '>' && s[1] == ' ' && starts_with_command_word(trim_left(s.substr(2)))) {
    command = std::string(trim_right(trim_left(s.substr(2))));
    return true;
  }
  return false;
}

CleanedPaste clean_paste(std::string_view bytes) {
  CleanedPaste result;
  DecodedText decoded = decode_console_output(bytes);
  result.encoding = decoded.encoding;
  std::string text = std::move(decoded.text);

  // UTF-16 shown as a repr: "C\x00o\x00p\x00y\x00..." (decode line by line so the rest stays).
  if (count_occurrences(text, "\\x00", 4) >= 4) {
    std::string rebuilt;
    rebuilt.reserve(text.size());
    for (auto line : split_lines(text)) {
      if (count_occurrences(line, "\\x00", 2) >= 2) {
        rebuilt += decode_mixed_utf16(unescape_repr(line));
        result.utf16_rendering = true;
      } else {
        rebuilt += line;
      }
      rebuilt += '\n';
    }
    text = std::move(rebuilt);
  }

  text = normalise_line_ends(text);
  std::vector<std::string_view> lines = split_lines(text);

  // UTF-16 shown with each NUL as a space: de-space only when most lines look like that.
  std::size_t candidates = 0;
  std::size_t spaced = 0;
  for (auto line : lines) {
    auto t = trim_right(line);
    if (t.size() < 3) continue;
    ++candidates;
    if (spaced_offset(t) >= 0) ++spaced;
  }
  bool despace_lines = spaced >= 2 && spaced * 10 >= candidates * 6;
  if (despace_lines) result.utf16_rendering = true;

  // Quote prefixes: "> " on most lines means the whole paste was quoted.
  std::size_t non_empty = 0;
  std::size_t quoted = 0;
  for (auto line : lines) {
    if (trim_right(line).empty()) continue;
    ++non_empty;
    if (has_quote_marker(trim_left(line))) ++quoted;
  }
  bool strip_quotes = quoted >= 2 && quoted * 2 >= non_empty;

  std::string out;
  out.reserve(text.size());
  std::string despaced;
  bool after_python_prompt = false;
  for (auto raw : lines) {
    std::string_view line = trim_right(raw);
    if (despace_lines) {
      int offset = spaced_offset(line);
      if (offset >= 0) {
        despaced = despace(line, offset);
        line = trim_right(despaced);
      }
    }
    if (strip_quotes) {
      // One level of quoting, possibly nested ("> > text").
      std::string_view t = trim_left(line);
      if (has_quote_marker(t)) {
        while (has_quote_marker(t)) t = trim_left(t.substr(1));
        line = t;
      }
    }
    std::string_view trimmed = trim_left(line);
    std::string_view rest;
    if (is_fence(trimmed, rest)) {
      // "```bash" opens a block; "```Wed May 15 ..." is a fence glued to the first output line.
      if (rest.empty() || rest.find(' ') == std::string_view::npos) continue;
      line = rest;
      trimmed = rest;
    }
    while (line.size() >= 3 && line.substr(line.size() - 3) == "```") line = trim_right(line.substr(0, line.size() - 3));
    std::string command;
    if (split_prompt(line, command)) {
      after_python_prompt = trimmed.substr(0, 3) == ">>>";
      if (!command.empty()) result.commands.push_back(std::move(command));
      continue;
    }
    if (after_python_prompt && trimmed.substr(0, 4) == "... ") {
      result.commands.push_back(std::string(trimmed.substr(4)));
      continue;
    }
    after_python_prompt = false;
    if (!trimmed.empty() && trimmed.front() == '>' && !strip_quotes && has_quote_marker(trimmed)) {
      // A single quoted line among plain ones: keep the text without the mark.
      line = trim_left(trimmed.substr(1));
    }
    out.append(line.data(), line.size());
    out += '\n';
  }
  result.text = std::move(out);
  return result;
}

}  // namespace tfwsl
