#include "common/wslconfig/wslconfig_document.hpp"

#include <algorithm>
#include <string>
#include <string_view>

#include "common/parse/line_tools.hpp"
#include "common/text/console_decoder.hpp"
#include "common/text/utf_convert.hpp"
#include "common/util/ascii.hpp"

namespace tfwsl::wslconfig {
namespace {

bool is_key_char(char c) { return ascii_is_alnum(c) || c == '_' || c == '-' || c == '.'; }

// Where an inline comment starts: '#' or ';' outside double quotes (wsl.exe's parser, like git's
// config parser it derives from, ends the value there). npos when there is none.
std::size_t comment_start(std::string_view text, std::size_t from) {
  bool quoted = false;
  for (std::size_t i = from; i < text.size(); ++i) {
    if (text[i] == '"') quoted = !quoted;
    if (!quoted && (text[i] == '#' || text[i] == ';')) return i;
  }
  return std::string_view::npos;
}

void classify_line(Line& line, const std::string& current_section) {
  line.kind = LineKind::blank;
  line.section = current_section;
  line.key.clear();
  line.value.clear();
  line.inline_comment = false;
  line.value_begin = line.value_end = 0;
  const std::string_view content = line.content;
  std::size_t i = 0;
  while (i < content.size() && ascii_is_space(content[i])) ++i;
  if (i == content.size()) return;
  const char first = content[i];
  if (first == '#' || first == ';') {
    line.kind = LineKind::comment;
    return;
  }
  if (first == '[') {
    const auto close = content.find(']', i);
    if (close == std::string_view::npos) {
      line.kind = LineKind::malformed;
      return;
    }
    std::string_view rest = content.substr(close + 1);
    std::size_t r = 0;
    while (r < rest.size() && ascii_is_space(rest[r])) ++r;
    if (r < rest.size() && rest[r] != '#' && rest[r] != ';') {
      line.kind = LineKind::malformed;  // "[wsl2] memory=48GB": header and key on one line
      return;
    }
    line.kind = LineKind::section;
    line.inline_comment = r < rest.size();
    line.section = ascii_lower(trim_with_nbsp(content.substr(i + 1, close - i - 1)));
    return;
  }
  if (!ascii_is_alpha(first)) {
    line.kind = LineKind::malformed;
    return;
  }
  std::size_t key_end = i;
  while (key_end < content.size() && is_key_char(content[key_end])) ++key_end;
  std::size_t eq = key_end;
  while (eq < content.size() && ascii_is_space(content[eq])) ++eq;
  if (eq >= content.size() || content[eq] != '=') {
    line.kind = LineKind::malformed;
    return;
  }
  line.kind = LineKind::key_value;
  line.key = std::string(content.substr(i, key_end - i));
  std::size_t value_begin = eq + 1;
  while (value_begin < content.size() && ascii_is_space(content[value_begin])) ++value_begin;
  std::size_t value_end = content.size();
  if (const auto comment = comment_start(content, value_begin); comment != std::string_view::npos) {
    line.inline_comment = true;
    value_end = comment;
  }
  while (value_end > value_begin && ascii_is_space(content[value_end - 1])) --value_end;
  line.value_begin = value_begin;
  line.value_end = value_end;
  line.value = std::string(content.substr(value_begin, value_end - value_begin));
}

}  // namespace

const char* to_string(FileEncoding encoding) {
  switch (encoding) {
    case FileEncoding::utf8:
      return "utf-8";
    case FileEncoding::utf8_bom:
      return "utf-8 with BOM";
    case FileEncoding::utf16le_bom:
      return "utf-16le with BOM";
    case FileEncoding::utf16be_bom:
      return "utf-16be with BOM";
    case FileEncoding::utf16le:
      return "utf-16le";
    case FileEncoding::utf16be:
      return "utf-16be";
    case FileEncoding::invalid_utf8:
      return "not utf-8";
  }
  return "unknown";
}

namespace {

constexpr std::string_view k_utf8_bom = "\xEF\xBB\xBF";

// The file is written back as UTF-8 without a BOM, so the text must not start with U+FEFF: a BOM
// written twice (an editor adding one to a file that had one) would become the written file's BOM
// and be dropped on the next read, turning "\uFEFF[wsl2]", which no reader takes for a header,
// into [wsl2] and its keys into settings. A repeated BOM is a BOM. (Found by fuzz_wslconfig: an
// unset left a key that a read of the written file found.)
std::string without_leading_boms(std::string text) {
  std::size_t at = 0;
  while (std::string_view(text).substr(at).starts_with(k_utf8_bom)) at += k_utf8_bom.size();
  return text.erase(0, at);
}

std::string decode_marked(std::string_view bytes, FileEncoding& encoding) {
  if (bytes.starts_with(k_utf8_bom)) {
    encoding = FileEncoding::utf8_bom;
    // Written back without the BOM, so it must be text: invalid bytes become U+FFFD, as UTF-16
    // decoding does. (Kept raw, a body starting FF FE would be read back as UTF-16: found by
    // fuzz_wslconfig.)
    return parse::valid_utf8(bytes.substr(3));
  }
  const bool big_endian = bytes.starts_with("\xFE\xFF");
  encoding = big_endian ? FileEncoding::utf16be_bom : FileEncoding::utf16le_bom;
  return utf16_bytes_to_utf8(bytes.substr(2), big_endian);
}

}  // namespace

std::string decode_wslconfig(std::string_view bytes, FileEncoding& encoding) {
  if (bytes.starts_with(k_utf8_bom) || bytes.starts_with("\xFF\xFE") || bytes.starts_with("\xFE\xFF"))
    return without_leading_boms(decode_marked(bytes, encoding));
  const ConsoleEncoding guessed = detect_console_encoding(bytes);
  if (guessed == ConsoleEncoding::utf16le || guessed == ConsoleEncoding::utf16be) {
    const bool big_endian = guessed == ConsoleEncoding::utf16be;
    encoding = big_endian ? FileEncoding::utf16be : FileEncoding::utf16le;
    return without_leading_boms(utf16_bytes_to_utf8(bytes, big_endian));
  }
  encoding = is_valid_utf8(bytes) ? FileEncoding::utf8 : FileEncoding::invalid_utf8;
  return std::string(bytes);
}

Document Document::parse(std::string_view bytes) {
  Document doc;
  const std::string text = decode_wslconfig(bytes, doc.m_encoding);
  std::size_t start = 0;
  while (start < text.size()) {
    const auto newline = text.find('\n', start);
    Line line;
    if (newline == std::string::npos) {
      line.content = text.substr(start);
      start = text.size();
    } else {
      std::size_t content_end = newline;
      while (content_end > start && text[content_end - 1] == '\r') --content_end;
      line.content = text.substr(start, content_end - start);
      line.ending = text.substr(content_end, newline + 1 - content_end);
      start = newline + 1;
    }
    doc.m_lines.push_back(std::move(line));
  }
  doc.classify();
  return doc;
}

void Document::classify() {
  std::string current;
  for (Line& line : m_lines) {
    classify_line(line, current);
    if (line.kind == LineKind::section) current = line.section;
  }
}

std::optional<std::string> Document::get(std::string_view section, std::string_view key) const {
  const std::size_t number = line_of(section, key);
  if (number == 0) return std::nullopt;
  return m_lines[number - 1].value;
}

std::size_t Document::line_of(std::string_view section, std::string_view key) const {
  const std::string wanted = ascii_lower(section);
  for (std::size_t i = m_lines.size(); i-- > 0;) {
    const Line& line = m_lines[i];
    if (line.kind == LineKind::key_value && line.section == wanted && iequals(line.key, key)) return i + 1;
  }
  return 0;
}

std::string Document::dominant_ending() const {
  std::size_t crlf = 0;
  std::size_t lf = 0;
  for (const Line& line : m_lines) {
    if (line.ending.empty()) continue;
    (line.ending.size() > 1 ? crlf : lf) += 1;
  }
  return lf > crlf ? "\n" : "\r\n";
}

void Document::set(std::string_view section, std::string_view key, std::string_view value) {
  if (const std::size_t number = line_of(section, key); number != 0) {
    Line& line = m_lines[number - 1];
    line.content.replace(line.value_begin, line.value_end - line.value_begin, value);
    classify();
    return;
  }
  const std::string wanted = ascii_lower(section);
  const std::string ending = dominant_ending();
  const bool ended_without_newline = !m_lines.empty() && m_lines.back().ending.empty();
  std::vector<Line> added;
  std::size_t insert_at = m_lines.size();
  // The last header of the section (wsl.exe merges repeated sections; the last one is where a
  // reader looks), then after the last key of its block, or right after the header.
  std::optional<std::size_t> header;
  for (std::size_t i = 0; i < m_lines.size(); ++i)
    if (m_lines[i].kind == LineKind::section && m_lines[i].section == wanted) header = i;
  if (header) {
    insert_at = *header + 1;
    for (std::size_t i = *header + 1; i < m_lines.size() && m_lines[i].kind != LineKind::section; ++i)
      if (m_lines[i].kind == LineKind::key_value) insert_at = i + 1;
  } else {
    Line header_line;
    header_line.content = "[" + std::string(section) + "]";
    header_line.ending = ending;
    added.push_back(std::move(header_line));
  }
  Line key_line;
  key_line.content = std::string(key) + "=" + std::string(value);
  key_line.ending = ending;
  added.push_back(std::move(key_line));
  if (insert_at > 0 && m_lines[insert_at - 1].ending.empty()) {
    // Adding after a last line without a line end: it gets one, and the file keeps ending without.
    m_lines[insert_at - 1].ending = ending;
    if (ended_without_newline && insert_at == m_lines.size()) added.back().ending.clear();
  }
  m_lines.insert(m_lines.begin() + static_cast<std::ptrdiff_t>(insert_at), added.begin(), added.end());
  classify();
}

std::size_t Document::unset(std::string_view section, std::string_view key) {
  const std::string wanted = ascii_lower(section);
  const std::size_t before = m_lines.size();
  const bool last_had_no_ending = !m_lines.empty() && m_lines.back().ending.empty();
  m_lines.erase(std::remove_if(m_lines.begin(), m_lines.end(),
                               [&](const Line& line) {
                                 return line.kind == LineKind::key_value && line.section == wanted &&
                                        iequals(line.key, key);
                               }),
                m_lines.end());
  // Removing a file's last line must not leave a line end the file did not have.
  if (last_had_no_ending && !m_lines.empty() && before != m_lines.size()) m_lines.back().ending.clear();
  classify();
  return before - m_lines.size();
}

std::string Document::serialize() const {
  std::string out;
  for (const Line& line : m_lines) {
    out += line.content;
    out += line.ending;
  }
  return out;
}

}  // namespace tfwsl::wslconfig
