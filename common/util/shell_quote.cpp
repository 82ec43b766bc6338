#include "common/util/shell_quote.hpp"

#include "common/util/visible_text.hpp"

namespace tfwsl {
namespace {

bool is_plain_ascii_word_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' ||
         c == '.' || c == '/' || c == ':' || c == '+' || c == '=' || c == '@' || c == ',' || c == '%';
}

bool is_ascii_alnum(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); }

// Bare in bash: nothing any POSIX shell expands (no glob, brace, tilde, history, variable or
// command character). Only a word that starts with a letter, a digit, '-', '.', '/' or '_' stays
// bare (a leading '=' or '%' means something to zsh or to job control).
bool bash_bare(std::string_view arg) {
  if (arg.empty()) return false;
  const char first = arg.front();
  if (!(is_ascii_alnum(first) || first == '-' || first == '.' || first == '/' || first == '_')) return false;
  for (char c : arg)
    if (!is_plain_ascii_word_char(c)) return false;
  return true;
}

// Bare in PowerShell: letters, digits and - _ . / : + = \ only; not "--" (PowerShell's end of
// parameters) and no leading '-' followed by nothing else.
bool powershell_bare(std::string_view arg) {
  if (arg.empty() || arg == "--" || arg == "-") return false;
  for (char c : arg) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
                    c == '-' || c == '.' || c == '/' || c == ':' || c == '+' || c == '=' || c == '\\';
    if (!ok) return false;
  }
  return true;
}

// U+2018..U+201B in UTF-8: E2 80 98..9B. PowerShell ends a single-quoted string at any of them.
std::size_t powershell_quote_length(std::string_view text, std::size_t at) {
  if (text[at] == '\'') return 1;
  if (at + 2 < text.size() && static_cast<unsigned char>(text[at]) == 0xE2 &&
      static_cast<unsigned char>(text[at + 1]) == 0x80) {
    const auto third = static_cast<unsigned char>(text[at + 2]);
    if (third >= 0x98 && third <= 0x9B) return 3;
  }
  return 0;
}

bool is_cmd_special(char c) {
  switch (c) {
    case '(':
    case ')':
    case '%':
    case '!':
    case '^':
    case '"':
    case '<':
    case '>':
    case '&':
    case '|':
      return true;
    default:
      return false;
  }
}

// The first argument a printed command cannot show both safely and runnable (visible_text).
const std::string* unshowable_argument(const std::vector<std::string>& argv) {
  for (const std::string& a : argv)
    if (needs_visible_text(a)) return &a;
  return nullptr;
}

std::string join(const std::vector<std::string>& words) {
  std::string out;
  for (const std::string& w : words) out += (out.empty() ? "" : " ") + w;
  return out;
}

}  // namespace

std::string bash_quote(std::string_view argument) {
  if (bash_bare(argument)) return std::string(argument);
  std::string out = "'";
  for (char c : argument) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string bash_quote_keeping_home(std::string_view argument) {
  if (argument == "~") return "~";
  if (argument.substr(0, 2) == "~/")
    return "~/" + (argument.size() == 2 ? std::string() : bash_quote(argument.substr(2)));
  return bash_quote(argument);
}

std::string powershell_quote(std::string_view argument) {
  if (powershell_bare(argument)) return std::string(argument);
  std::string out = "'";
  for (std::size_t i = 0; i < argument.size();) {
    const std::size_t quote = powershell_quote_length(argument, i);
    const std::size_t n = quote == 0 ? 1 : quote;
    const std::string_view piece = argument.substr(i, n);
    out += piece;
    if (quote != 0) out += piece;  // doubled: one literal quote character
    i += n;
  }
  return out + "'";
}

std::string windows_argument_quote(std::string_view argument) {
  if (!argument.empty() && argument.find_first_of(" \t\n\v\"") == std::string_view::npos) return std::string(argument);
  std::string out = "\"";
  std::size_t backslashes = 0;
  for (char c : argument) {
    if (c == '\\') {
      ++backslashes;
      continue;
    }
    // Backslashes count only before a quote: doubled there (and the quote escaped), kept elsewhere.
    out.append(c == '"' ? backslashes * 2 + 1 : backslashes, '\\');
    backslashes = 0;
    out += c;
  }
  out.append(backslashes * 2, '\\');  // before the closing quote
  return out + "\"";
}

std::string command_not_shown(std::string_view argument) {
  return "(command not shown: its argument '" + visible_text(argument) +
         "' holds a control character, which a terminal would act on if printed and which written out would "
         "not run as printed)";
}

std::string bash_command(const std::vector<std::string>& argv) {
  if (const std::string* bad = unshowable_argument(argv)) return command_not_shown(*bad);
  std::vector<std::string> words;
  for (const std::string& a : argv) words.push_back(bash_quote_keeping_home(a));
  // A first word with '=' would be a variable assignment, not the program.
  if (!argv.empty() && argv.front().find('=') != std::string::npos && words.front() == argv.front())
    words.front() = "'" + argv.front() + "'";
  return join(words);
}

std::string powershell_command(const std::vector<std::string>& argv) {
  if (const std::string* bad = unshowable_argument(argv)) return command_not_shown(*bad);
  std::vector<std::string> words;
  for (std::size_t i = 0; i < argv.size(); ++i) words.push_back(powershell_quote(argv[i]));
  // A quoted first word is a string to PowerShell, not a command: the call operator runs it.
  if (!argv.empty() && !powershell_bare(argv.front())) words.front() = "& " + words.front();
  return join(words);
}

std::string cmd_command(const std::vector<std::string>& argv) {
  if (const std::string* bad = unshowable_argument(argv)) return command_not_shown(*bad);
  std::string out;
  for (const std::string& a : argv) {
    if (!out.empty()) out += ' ';
    for (char c : windows_argument_quote(a)) {
      if (is_cmd_special(c)) out += '^';
      out += c;
    }
  }
  return out;
}

bool powershell5_passes_exactly(std::string_view argument) {
  return !argument.empty() && argument.find('"') == std::string_view::npos;
}

std::string shell_command(Shell shell, const std::vector<std::string>& argv) {
  switch (shell) {
    case Shell::bash:
      return bash_command(argv);
    case Shell::powershell:
      return powershell_command(argv);
    case Shell::cmd:
      return cmd_command(argv);
  }
  return bash_command(argv);
}

const char* to_string(Shell shell) {
  switch (shell) {
    case Shell::bash:
      return "bash";
    case Shell::powershell:
      return "PowerShell";
    case Shell::cmd:
      return "cmd.exe";
  }
  return "bash";
}

namespace {

// Where each argument of `command` starts: after a blank outside quotes, not escaped. bash: '...'
// and "..." quote, a backslash escapes; PowerShell: '...' and "..." quote, a backtick escapes;
// cmd.exe: a ^ escapes the next character for cmd, which still counts for the C runtime's "...".
std::vector<std::size_t> argument_starts(Shell shell, std::string_view command) {
  std::vector<std::size_t> starts;
  char quote = 0;
  std::size_t backslashes = 0;  // cmd.exe: a " after an odd number is a literal quote
  bool in_word = false;
  for (std::size_t i = 0; i < command.size(); ++i) {
    char c = command[i];
    const bool escape = (shell == Shell::bash && quote != '\'' && c == '\\') ||
                        (shell == Shell::powershell && quote != '\'' && c == '`') || (shell == Shell::cmd && c == '^');
    if (!in_word && c != ' ') starts.push_back(i), in_word = true;
    if (escape && i + 1 < command.size()) {
      if (shell != Shell::cmd) {
        ++i;
        continue;
      }
      c = command[++i];
    }
    if (shell == Shell::cmd) {
      if (c == '"' && backslashes % 2 == 0) quote = quote == 0 ? '"' : 0;
      backslashes = c == '\\' ? backslashes + 1 : 0;
    } else if (quote == 0 && (c == '\'' || c == '"')) {
      quote = c;
    } else if (quote != 0 && c == quote) {
      quote = 0;
    }
    if (c == ' ' && quote == 0) in_word = false;
  }
  return starts;
}

}  // namespace

std::vector<std::string> printed_arguments(Shell shell, std::string_view command) {
  std::vector<std::string> pieces;
  const auto starts = argument_starts(shell, command);
  for (std::size_t k = 0; k < starts.size(); ++k) {
    std::size_t end = k + 1 < starts.size() ? starts[k + 1] : command.size();
    while (end > starts[k] && command[end - 1] == ' ') --end;
    std::string piece(command.substr(starts[k], end - starts[k]));
    if (shell == Shell::powershell && !pieces.empty() && pieces.back() == "&")
      pieces.back() += " " + piece;
    else
      pieces.push_back(std::move(piece));
  }
  return pieces;
}

const char* line_continuation(Shell shell) {
  switch (shell) {
    case Shell::bash:
      return " \\";
    case Shell::powershell:
      return " `";
    case Shell::cmd:
      return " ^";
  }
  return " \\";
}

}  // namespace tfwsl
