#pragma once
// %UserProfile%\.wslconfig as an editable document. Every line keeps its bytes and its line end
// (LF, CRLF, whatever was found) unless the edit is about that line: set() rewrites only the
// value of the key's line, or adds one line (and the section header when the section is absent);
// unset() removes the key's lines. Reads UTF-8 with or without BOM and UTF-16LE/BE with or without
// a BOM (without one, by where the NUL bytes of ASCII text fall); serialize() always writes UTF-8 without BOM, the only
// form wsl.exe reads reliably (learn.microsoft.com/windows/wsl/wsl-config, ".wslconfig"). Pure functions over text: the
// atomic file write belongs to the CLI.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tfwsl::wslconfig {

enum class FileEncoding { utf8, utf8_bom, utf16le_bom, utf16be_bom, utf16le, utf16be, invalid_utf8 };
const char* to_string(FileEncoding encoding);

enum class LineKind { blank, comment, section, key_value, malformed };

struct Line {
  std::string content;  // the line without its end, UTF-8
  std::string ending;   // "\n", "\r\n", "" for a last line without one
  LineKind kind = LineKind::blank;
  std::string section;  // section lines: the name, lower-cased; other lines: the section they are in ("" before any)
  std::string key;      // key_value lines: the key as written
  std::string value;    // key_value lines: trimmed, without an inline comment
  bool inline_comment = false;  // a '#' or ';' comment follows the value or the section header
  std::size_t value_begin = 0;  // key_value lines: where the value starts in `content`
  std::size_t value_end = 0;    // ... and where it ends (before blanks and an inline comment)
};

class Document {
 public:
  // Never fails: bytes that are not UTF-8 are kept as they are (and reported as invalid_utf8).
  static Document parse(std::string_view bytes);

  FileEncoding encoding() const { return m_encoding; }
  const std::vector<Line>& lines() const { return m_lines; }

  // The value wsl.exe would use: the last assignment of the key in the section (case-insensitive).
  std::optional<std::string> get(std::string_view section, std::string_view key) const;
  // 1-based line number of that assignment, 0 when absent.
  std::size_t line_of(std::string_view section, std::string_view key) const;

  void set(std::string_view section, std::string_view key, std::string_view value);
  // Removes every assignment of the key in the section; returns how many lines went.
  std::size_t unset(std::string_view section, std::string_view key);

  // UTF-8 without BOM; byte-identical to the input for UTF-8 input without edits.
  std::string serialize() const;

  // The line end new lines get: the one most lines use (CRLF for a file with none, as Notepad writes).
  std::string dominant_ending() const;

 private:
  void classify();

  FileEncoding m_encoding = FileEncoding::utf8;
  std::vector<Line> m_lines;
};

// Decodes .wslconfig bytes to UTF-8 text and says how they were encoded.
std::string decode_wslconfig(std::string_view bytes, FileEncoding& encoding);

}  // namespace tfwsl::wslconfig
