#pragma once
// Quoting an argument vector for the shell a person pastes it into, so that the shell hands the
// program exactly these arguments: nothing expands, splits or runs ($(...), backticks, ;, &, |,
// %VAR%, !, quotes, spaces and non-ASCII text all arrive as written). Knows nothing of the product.
//
// - bash (any POSIX sh): an argument made only of characters no shell treats specially is left
//   bare; any other is put in single quotes, each ' written as '\'' (POSIX, "Shell Command
//   Language", 2.2.2 Single-Quotes: https://pubs.opengroup.org/onlinepubs/9699919799/utilities/V3_chap02.html).
// - PowerShell: single-quoted strings, in which only the four single-quote characters PowerShell
//   knows (' and U+2018..U+201B) are special and are doubled (about_Quoting_Rules:
//   https://learn.microsoft.com/powershell/module/microsoft.powershell.core/about/about_quoting_rules).
//   A program name that needs quotes is called with the call operator (& 'C:\my tools\x.exe').
//   PowerShell 7.3 and later pass such arguments to a program exactly; Windows PowerShell 5.1 drops
//   an empty argument and does not escape a " inside one (about_Parsing, "Passing arguments that
//   contain quote characters"): powershell_command reports those arguments as not portable.
// - cmd.exe: each argument quoted as the Microsoft C runtime and CommandLineToArgvW split a
//   command line (https://learn.microsoft.com/cpp/c-language/parsing-c-command-line-arguments):
//   in "..." when it has a blank or a ", backslashes doubled before a ", each " as \"; then every
//   character cmd.exe itself acts on, ( ) % ! ^ " < > & |, gets a ^ before it, so cmd passes it on
//   (inside the quotes too: a ^" keeps cmd from seeing a quoted region).
//
// A command is printed for a person to read and paste. An argument holding a control character (or
// anything else visible_text writes out: an escape sequence, a line break, broken UTF-8) cannot be
// both: printed raw, the terminal acts on it; written out, the line no longer runs as printed. The
// *_command functions then print no command but command_not_shown's sentence, which names that
// argument, made visible.

#include <string>
#include <string_view>
#include <vector>

namespace tfwsl {

enum class Shell { bash, powershell, cmd };

// One argument, quoted for the shell (bash, PowerShell); the word for cmd.exe is cmd_command's.
std::string bash_quote(std::string_view argument);
std::string powershell_quote(std::string_view argument);
// One argument as the C runtime's parser wants it (no cmd.exe escaping: for CreateProcess).
std::string windows_argument_quote(std::string_view argument);

// bash_quote, but a leading "~/" (or a lone "~") is left for the shell to expand to the home folder:
// for paths that mean "in the home folder of whoever runs it" (~/.venvs/x). "~other/x" stays quoted.
std::string bash_quote_keeping_home(std::string_view argument);

// The whole line: the program, then the arguments, separated by one space. In bash each word is
// bash_quote_keeping_home's: the "~/.venvs/tf" of a profile is the home folder of whoever pastes the
// line, never a folder named "~" (issue 43, item 4). PowerShell and cmd.exe pass "~/x" on to the
// program as text (neither expands it for a program): tfwsl and the distro's bash -lc expand it there.
std::string bash_command(const std::vector<std::string>& argv);
std::string powershell_command(const std::vector<std::string>& argv);
std::string cmd_command(const std::vector<std::string>& argv);

// "(command not shown: its argument 'a\x1bb' holds a control character ...)": what the *_command
// functions print in place of a command with such an argument.
std::string command_not_shown(std::string_view argument);

// True when Windows PowerShell 5.1 would pass this argument to a program as it is (not empty, no ").
bool powershell5_passes_exactly(std::string_view argument);

// bash_command, powershell_command or cmd_command.
std::string shell_command(Shell shell, const std::vector<std::string>& argv);

const char* to_string(Shell shell);  // "bash", "PowerShell", "cmd.exe"

// A printed command (any of the *_command functions above, or a line of them joined by && or ;)
// cut at the blanks its shell splits at: each piece is one argument as printed, quotes and escapes
// kept ("'my file'", "^\"a b^\""), so the pieces joined by one space give the command back. A
// line may break between two pieces with the shell's continuation (text_wrap.hpp), never inside
// one. PowerShell's call operator stays with its program ("& 'C:\my tools\x.exe'").
std::vector<std::string> printed_arguments(Shell shell, std::string_view command);

// What ends a line that the command goes on after: " \" (bash), " `" (PowerShell), " ^" (cmd.exe).
// Each must be the last character of its line; the next line's leading blanks separate arguments.
const char* line_continuation(Shell shell);

}  // namespace tfwsl
