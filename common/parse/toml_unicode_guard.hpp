#pragma once
// A shield for a defect of toml++ 3.3.0, the version Debian 12 ships and both builds use: its
// generated whitespace table (is_non_ascii_horizontal_whitespace) reaches TOML_UNREACHABLE, that is
// undefined behaviour, for some non-ASCII code points that are not whitespace, whenever the parser
// asks whether one of them is blank (a line that starts with one, the line after a line-ending
// backslash in a multi-line string, ...). Reported upstream as marzer/tomlplusplus#190 and #295,
// fixed by pull request #305 (2026-07), after 3.3.0. Our fuzzer found it in CI.
//
// Outside strings and comments TOML allows only ASCII, so such a code point can only be text inside
// a string or a comment: each one is replaced by a code point of the same UTF-8 length that the
// table answers safely (U+0500 for two bytes, U+FFFD for three). Lines, columns and byte offsets
// stay as they were, so the parser's error positions still point into the user's file, and the
// document's structure stays; only the text inside strings and comments changes, where no package
// name, version or marker can hold such a character (PEP 508 names them in ASCII).

#include <string>
#include <string_view>

namespace tfwsl::parse {

// Whether toml++ 3.3.0's whitespace table would reach its undefined default on `code_point`:
// U+00A1..U+0499, U+2C5E..U+2FFF, U+3001..U+3057, U+FB26..U+FEFE.
bool toml_whitespace_table_fails_on(char32_t code_point);

// `text` with each such code point replaced (see above); invalid UTF-8 is left as it is, for the
// parser to refuse.
std::string guard_toml_unicode(std::string_view text);

}  // namespace tfwsl::parse
