#pragma once
// The few ECMA-48 (ANSI) sequences the reports use: SGR colours for a status mark, and the
// carriage return + "erase in line" that rewrites a live status line in place. Whether to write
// them at all is decided once per run (common/cli/color_choice.hpp).

namespace tfwsl::terminal_style {

inline constexpr const char* k_green = "\x1b[32m";
inline constexpr const char* k_yellow = "\x1b[33m";
inline constexpr const char* k_red = "\x1b[31m";
inline constexpr const char* k_dim = "\x1b[2m";
inline constexpr const char* k_reset = "\x1b[0m";
inline constexpr const char* k_rewrite_line = "\r\x1b[K";  // back to column 1, erase to the end

}  // namespace tfwsl::terminal_style
