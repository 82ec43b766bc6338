#pragma once
// The one way text for a person reaches the terminal: every line at the console's width
// (Console::columns), through fit_to_width (common/util/text_wrap.hpp). A line that fits is written
// as it is; a longer one wraps at words under its indent, and a command the text prints for a named
// shell continues between its arguments with that shell's continuation (" \", " `", " ^").
//
// A command's text output opts in where it is registered or written (one FittedOutput, or
// print_text); machine output never does: --json, completion scripts, DSC, the doctor bundle, a
// cloud-init file or a profile written to stdout stay byte for byte what a program reads.

#include <memory>
#include <string_view>
#include <vector>

#include "common/cli/command_line.hpp"
#include "common/util/text_wrap.hpp"

namespace tfwsl {

// What fit_to_width uses on this console: its width and these printed commands.
WrapStyle console_text_style(const Console& console, std::vector<PrintedCommand> commands = {});

// While it lives, each line written on console.err, and on console.out when `out_is_text` (false
// under --json), is fitted to the console's width as it ends. Inside another FittedOutput it adds
// its commands to that one's, and a line is never fitted twice. Text flushed before its line ends
// (a prompt, a live status line) is written as it is; std::cerr's flush after every << is off
// meanwhile, so a prompt on it needs its std::flush.
class FittedOutput {
 public:
  FittedOutput(Console& console, bool out_is_text, std::vector<PrintedCommand> commands = {});
  ~FittedOutput();
  FittedOutput(const FittedOutput&) = delete;
  FittedOutput& operator=(const FittedOutput&) = delete;

  class Buffer;

 private:
  std::unique_ptr<Buffer> m_out;
  std::unique_ptr<Buffer> m_err;
};

// `text` on console.out, each line fitted; `commands` are the commands it prints, each for its shell.
void print_text(Console& console, std::string_view text, std::vector<PrintedCommand> commands = {});

}  // namespace tfwsl
