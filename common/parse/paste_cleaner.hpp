#pragma once
// What users paste is rarely what the tool printed: a shell prompt and the command before the
// output, markdown fences around it, "> " quote prefixes from an issue reply, CRLF (or a doubled CR
// from a UTF-16 pipe), UTF-16LE bytes, or UTF-16 shown as text ("W\x00S\x00L\x00" from a Go or
// Python repr, or "W i n d o w s" where a viewer turned each NUL into a space). clean_paste undoes
// all of that so the parsers see plain UTF-8 lines.

#include <string>
#include <string_view>
#include <vector>

#include "common/text/console_decoder.hpp"

namespace tfwsl {

// Where a prompt or a markdown fence was dropped: one command's output ends there and the next may
// begin (explain's parts of a paste).
struct PasteBreak {
  std::size_t line = 0;  // the index in `text` of the line after it
  std::string command;   // the command typed at the prompt; empty for a fence
};

struct CleanedPaste {
  std::string text;                                  // UTF-8, '\n' line ends, prompts/fences/quote marks removed
  std::vector<std::string> commands;                 // commands found after shell prompts, in order ("wsl -l -v")
  std::vector<std::string> windows_commands;         // those typed at a PowerShell or cmd.exe prompt
  ConsoleEncoding encoding = ConsoleEncoding::utf8;  // how the bytes were encoded
  bool utf16_rendering = false;                      // UTF-16 shown as text (\x00 escapes or spaced letters) was undone
  std::vector<PasteBreak> breaks;                    // in text order
};

// Never fails: any bytes give some text (ill-formed UTF-8 becomes U+FFFD, NULs are dropped).
CleanedPaste clean_paste(std::string_view bytes);

// When `line` starts with a shell prompt (PowerShell "PS C:\x> ", cmd "C:\x>", POSIX
// "user@host:~$ ", "$ ", "# " after user@host, a bare "> " before a command, Python ">>> "),
// returns the command after it; otherwise returns false. Exposed for tests.
bool split_prompt(std::string_view line, std::string& command);

}  // namespace tfwsl
