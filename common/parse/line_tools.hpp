#pragma once
// Small text helpers the output parsers share: a normal form for comparing a pasted line with
// wsl.exe's own messages (ASCII case folded, full-width colon and no-break spaces made plain,
// runs of blanks collapsed), because pastes and translations differ in exactly those details.
// Trimming and ASCII case folding are common/util/ascii.hpp's (trim_with_nbsp, iequals, icontains),
// splitting into lines common/util/text_lines.hpp's (lines_of).

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tfwsl::parse {

// Lower-cased ASCII, U+FF1A (full-width colon) -> ':', U+00A0 / U+202F / U+3000 / tab -> ' ',
// runs of spaces collapsed to one, a space before ':' removed, trimmed; typographic quotes -> '\''.
std::string normalize_for_match(std::string_view text);

// normalize_for_match, then trailing sentence punctuation ('.', U+3002, ':', ',', quotes) removed.
std::string normalize_sentence(std::string_view text);

// Strips what a paste wraps around a single line: surrounding backticks, double quotes (with a
// trailing comma), leading "> " quote marks; blanks at both ends.
std::string_view strip_line_wrapping(std::string_view line);

bool contains(std::string_view text, std::string_view needle);

// "Default Version: 2", "WSL 版本： 2.1.3.0", "Version WSL\u00a0: 2.0": the label before the first
// colon (ASCII or full-width) in normalize_sentence form, and the value after it as written.
struct LabelValue {
  std::string label;
  std::string value;
};
std::optional<LabelValue> split_label_value(std::string_view line);

// "[5.10.102.1](https://5.10.102.1/)" (GitHub turned a version into a link) -> "5.10.102.1".
std::string strip_markdown_link(std::string_view value);

// The text itself when it is well-formed UTF-8, else with each ill-formed sequence replaced by
// U+FFFD: facts go into JSON, which must be UTF-8.
std::string valid_utf8(std::string_view text);

// Whitespace-separated words (ASCII blanks; also no-break spaces).
std::vector<std::string_view> words_of(std::string_view line);

// `word` is `option` or one edit from it (a character left out, added or changed, or two neighbours
// swapped): how an option typed by hand differs ("--satus", "--stauts", "--verison" is two).
bool within_one_edit(std::string_view word, std::string_view option);

// "555.99", "555.52.01", "12.5": digits and dots, starting with a digit, with at least one dot
// (the version numbers nvidia-smi prints).
bool is_dotted_number(std::string_view text);

// A cut marker: "..." (nvidia-smi ends a name cut to its column with it, people cut pastes with
// it) or U+2026. Text that holds one was cut: what stands before it may be partial ("10.0.190..."
// is no build number), so it is no fact.
bool has_cut_marker(std::string_view text);
bool starts_with_cut_marker(std::string_view text);
// The text without the cut markers (and blanks) at its end: "NVIDIA GeForce ..." -> "NVIDIA GeForce".
std::string_view strip_trailing_cut_markers(std::string_view text);

}  // namespace tfwsl::parse
