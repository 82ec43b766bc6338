#include "common/parse/line_tools.hpp"

#include <algorithm>

#include "common/text/utf_convert.hpp"
#include "common/util/ascii.hpp"

namespace tfwsl::parse {
std::string normalize_for_match(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  auto push_space = [&out] {
    if (!out.empty() && out.back() != ' ') out.push_back(' ');
  };
  for (std::size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    auto next_is = [&](std::string_view seq) { return text.compare(i, seq.size(), seq) == 0; };
    if (ascii_is_space(static_cast<char>(c))) {
      push_space();
      ++i;
    } else if (next_is("\xC2\xA0")) {  // U+00A0
      push_space();
      i += 2;
    } else if (next_is("\xE2\x80\xAF") || next_is("\xE3\x80\x80")) {  // U+202F, U+3000
      push_space();
      i += 3;
    } else if (next_is("\xEF\xBC\x9A")) {  // U+FF1A full-width colon
      if (!out.empty() && out.back() == ' ') out.pop_back();
      out.push_back(':');
      i += 3;
    } else if (next_is("\xE2\x80\x98") || next_is("\xE2\x80\x99") || next_is("\xE2\x80\x9C") ||
               next_is("\xE2\x80\x9D")) {  // typographic quotes
      out.push_back('\'');
      i += 3;
    } else if (c == ':') {
      if (!out.empty() && out.back() == ' ') out.pop_back();
      out.push_back(':');
      ++i;
    } else if (c == '"') {
      out.push_back('\'');
      ++i;
    } else {
      out.push_back(ascii_lower(static_cast<char>(c)));
      ++i;
    }
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

std::string normalize_sentence(std::string_view text) {
  std::string out = normalize_for_match(text);
  for (;;) {
    if (!out.empty() && (out.back() == '.' || out.back() == ':' || out.back() == ',' || out.back() == '\'' ||
                         out.back() == ' ' || out.back() == '!')) {
      out.pop_back();
    } else if (out.ends_with("\xE3\x80\x82")) {  // U+3002 ideographic full stop
      out.resize(out.size() - 3);
    } else {
      break;
    }
  }
  while (!out.empty() && (out.front() == '\'' || out.front() == ' ')) out.erase(out.begin());
  return out;
}

std::string_view strip_line_wrapping(std::string_view line) {
  line = trim_with_nbsp(line);
  for (int round = 0; round < 3; ++round) {
    const std::string_view before = line;
    while (line.starts_with(">")) line = trim_with_nbsp(line.substr(1));
    if (line.ends_with(",") && line.starts_with("\"")) line.remove_suffix(1);
    if (line.starts_with("```")) line = trim_with_nbsp(line.substr(3));
    if (line.ends_with("```")) line = trim_with_nbsp(line.substr(0, line.size() - 3));
    if (line.starts_with("`")) line = trim_with_nbsp(line.substr(1));
    if (line.ends_with("`")) line = trim_with_nbsp(line.substr(0, line.size() - 1));
    if (line.starts_with("\"")) line = trim_with_nbsp(line.substr(1));
    if (line.ends_with("\"")) line = trim_with_nbsp(line.substr(0, line.size() - 1));
    if (line == before) break;
  }
  return line;
}

bool contains(std::string_view text, std::string_view needle) { return text.find(needle) != std::string_view::npos; }

std::optional<LabelValue> split_label_value(std::string_view line) {
  const auto ascii = line.find(':');
  const auto wide = line.find("\xEF\xBC\x9A");
  const auto colon = std::min(ascii, wide);
  if (colon == std::string_view::npos || colon == 0) return std::nullopt;
  const std::size_t after = colon + (colon == wide ? 3 : 1);
  LabelValue out;
  out.label = normalize_sentence(line.substr(0, colon));
  out.value = std::string(trim_with_nbsp(line.substr(after)));
  if (out.label.empty()) return std::nullopt;
  return out;
}

std::string strip_markdown_link(std::string_view value) {
  value = trim_with_nbsp(value);
  if (value.starts_with("[")) {
    const auto close = value.find("](");
    if (close != std::string_view::npos && value.ends_with(")")) return std::string(value.substr(1, close - 1));
  }
  return std::string(value);
}

std::string valid_utf8(std::string_view text) {
  if (is_valid_utf8(text)) return std::string(text);
  return utf16_to_utf8(utf8_to_utf16(text));
}

std::vector<std::string_view> words_of(std::string_view line) {
  std::vector<std::string_view> words;
  std::size_t i = 0;
  auto blank_at = [&](std::size_t k) -> std::size_t {  // length of a blank at k, 0 when none
    if (k < line.size() && ascii_is_space(line[k])) return 1;
    if (k + 1 < line.size() && line[k] == '\xC2' && line[k + 1] == '\xA0') return 2;
    return 0;
  };
  while (i < line.size()) {
    while (i < line.size() && blank_at(i)) i += blank_at(i);
    const std::size_t start = i;
    while (i < line.size() && !blank_at(i)) ++i;
    if (i > start) words.push_back(line.substr(start, i - start));
  }
  return words;
}

bool is_dotted_number(std::string_view text) {
  return !text.empty() && ascii_is_digit(text.front()) && contains(text, ".") &&
         std::all_of(text.begin(), text.end(), [](char c) { return ascii_is_digit(c) || c == '.'; });
}

bool has_cut_marker(std::string_view text) { return contains(text, "...") || contains(text, "\xE2\x80\xA6"); }

bool starts_with_cut_marker(std::string_view text) {
  return text.starts_with("...") || text.starts_with("\xE2\x80\xA6");
}

std::string_view strip_trailing_cut_markers(std::string_view text) {
  text = trim_with_nbsp(text);
  // Both markers are three bytes long.
  while (text.ends_with("...") || text.ends_with("\xE2\x80\xA6"))
    text = trim_with_nbsp(text.substr(0, text.size() - 3));
  return text;
}

bool within_one_edit(std::string_view word, std::string_view option) {
  if (word == option) return true;
  const std::size_t n = word.size(), m = option.size();
  if (n + 1 < m || m + 1 < n) return false;
  std::size_t i = 0;
  while (i < n && i < m && word[i] == option[i]) ++i;
  if (n == m && i + 1 < n && word[i] == option[i + 1] && word[i + 1] == option[i])
    return word.substr(i + 2) == option.substr(i + 2);
  return word.substr(i + (n >= m ? 1 : 0)) == option.substr(i + (m >= n ? 1 : 0));
}

}  // namespace tfwsl::parse
