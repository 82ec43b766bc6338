#pragma once
// Text wrapped to a terminal's width with hanging indents, never inside a command or a path.
// A line breaks only at a space, and only between "atoms": a word, a span in quotes ('wsl
// --shutdown', `tfwsl provision`), or a command, which starts at a word the caller names (a program:
// "tfwsl", "wsl") and runs over its options and arguments until prose resumes (a word such as
// "then", "(the", or one that ends a clause with ',', ';', ')' or '.'). A path has no spaces, so it
// is one word. A command or a path longer than the room on a line gets a line of its own and may
// run past the width: cut in two it would no longer paste. Any other atom that long (a JSON blob)
// is cut at the width.
//
// fit_to_width is what every text output goes through (common/cli/fitted_output.hpp): a line that
// fits stays as it is; a longer one wraps as above, and a command the text names as printed for a
// shell (PrintedCommand) breaks only between its arguments, the line ending in the shell's
// continuation (" \", " `", " ^"). Only a line that holds a single word or argument may pass the
// width.
//
// Widths are counted in characters (UTF-8 code points), not bytes; VT colour sequences
// (ESC [ ... m) take no columns.

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "common/util/shell_quote.hpp"

namespace tfwsl {

// A command as the text prints it (shell_command and friends), for the shell it names.
struct PrintedCommand {
  Shell shell = Shell::bash;
  std::string text;
};

struct WrapStyle {
  std::size_t width = 80;      // columns of the terminal; a line holds at most this many
  std::string first_indent;    // before the first line
  std::string hanging_indent;  // before every following line
  // Whether `word` starts a command (its program name: "tfwsl", "wsl.exe"). Empty: no commands.
  std::function<bool(std::string_view word)> starts_command;
  // Commands printed whole in the text: a line breaks only between their arguments
  // (printed_arguments), with the shell's line_continuation at its end.
  std::vector<PrintedCommand> commands;
  // The spaces between words kept as they are (a table's columns) instead of one each, and a word
  // no line can hold standing alone on its line instead of cut: the text is shown as printed.
  bool as_printed = false;
};

// The columns `text` takes on a terminal: code points, escape sequences left out.
std::size_t display_width(std::string_view text);

// The atoms of one paragraph (no newlines), in order.
std::vector<std::string> wrap_atoms(std::string_view paragraph, const WrapStyle& style);

// `text` as lines of at most style.width columns (each without its newline). Newlines in `text`
// start a new line with the hanging indent; runs of spaces collapse into one.
std::vector<std::string> wrap_lines(std::string_view text, const WrapStyle& style);

// wrap_lines joined, each line ending in '\n'.
std::string wrap_text(std::string_view text, const WrapStyle& style);

// `text` with every line fitted to style.width: a line that fits is left exactly as it is; a longer
// one wraps (as_printed) under its own indent, its following lines under a table's second column
// ("  doctor      Check ..."), a list item's text ("  - x", " 3. x") or two columns further in.
// first_indent and hanging_indent are ignored.
std::string fit_to_width(std::string_view text, const WrapStyle& style);

// `text` in at most `width` columns by cutting out its middle ("copying big.tar … ETA 0:12"):
// its start and its end (an ETA, a count) stay. UTF-8 safe; unchanged when it fits.
std::string shorten_middle(std::string_view text, std::size_t width);

// The same by whole fields: `text` split at `separator` ("copying 17%: 512/3000 files, 8.0/46.9 MiB,
// 12.0 MiB/s, ETA 0:03") loses the fields before its last, nearest the end first, which "..." stands
// for; the first and the last always stay. When those two do not fit, shorten_middle.
std::string shorten_fields(std::string_view text, std::size_t width, std::string_view separator);

}  // namespace tfwsl
