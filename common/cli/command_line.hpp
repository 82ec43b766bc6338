#pragma once
// What both executables' command lines share: CLI11 parsing with "did you mean" (usage_check.hpp),
// the global options (--log-level, --log-file, --color), the colour decision, the single catch
// site, and the help's exit-code table (common/core/exit_codes.hpp) and examples.

#include <CLI/CLI.hpp>
#include <cstddef>
#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

#include "common/cli/color_choice.hpp"
#include "common/cli/status_line.hpp"
#include "common/core/logging.hpp"

namespace tfwsl {

// Where a command writes: stdout is for results only, stderr for messages. Tests pass string
// streams. The mains fill in what the terminal and the environment are; run_command_line decides
// `color` and `live_status` from them and the global options.
struct Console {
  std::ostream& out;
  std::ostream& err;
  bool out_is_terminal = false;
  bool err_is_terminal = false;
  bool in_is_terminal = false;
  EnvironmentLookup environment;  // empty: no variables set
  // Windows: turns on the console's VT processing for out or err and says whether it could
  // (a console that cannot shows the sequences as text). Empty: the terminal takes them as they are.
  std::function<bool(std::ostream&)> enable_escape_sequences;
  // Windows: from now on `out` writes "\n" as it is instead of "\r\n" (a script for bash, which
  // reads a CR as part of the line). Empty: out already does.
  std::function<void()> out_as_bytes;
  // The terminal's width in columns, what text on out and err is wrapped to (text_wrap.hpp); the
  // mains fill it in from the console, 80 when it is not a terminal.
  std::size_t columns = 80;
  // The console can show the check marks (✓ ✗); false on an old Windows console: ASCII marks.
  bool unicode_marks = true;
  bool color = false;        // write colour on out (color_choice.hpp)
  bool live_status = false;  // a status line on err may be rewritten in place
};

// The status line's settings for this console: live when err is a terminal, its width.
StatusLineSettings status_line_settings(const Console& console);

// The process's environment, for the mains (getenv; the Windows build's code page is UTF-8).
EnvironmentLookup process_environment();

struct GlobalOptions {
  std::string log_level = "warn";
  std::string log_file;
  std::string color = "auto";
};

// The args with "help COMMAND..." turned into "COMMAND... --help" and "/?" into "--help".
std::vector<std::string> help_spelled_as_option(const std::vector<std::string>& args);

// Adds --log-level, --log-file and --color to the app, and lets them be given after a command as
// well as before it (CLI11's fallthrough, inherited by the subcommands added after this call).
void add_global_options(CLI::App& app, GlobalOptions& options);

// The footer of a command's --help: `before` (may be empty), then "Examples:" and one line each.
std::string help_footer(const std::string& before, const std::vector<std::string>& examples);

// "Exit status:" and one line per code of exit_codes.hpp, for the program's --help.
std::string exit_status_table();

// The subcommands of an app and what runs each one (ninja-style table: one file per command adds
// its entry). A command returns its exit code.
class CommandTable {
 public:
  void add(CLI::App* subcommand, std::function<int()> run);
  const std::function<int()>* find(const CLI::App* subcommand) const;
  // The words of the command a prefix command runs (tfwsl run's COMMAND ARGS...), as given: the
  // parser never sees them (usage_check.hpp).
  const std::vector<std::string>& passthrough() const { return m_passthrough; }
  void set_passthrough(std::vector<std::string> words) const { m_passthrough = std::move(words); }

 private:
  std::vector<std::pair<const CLI::App*, std::function<int()>>> m_entries;
  mutable std::vector<std::string> m_passthrough;
};

// Parses args (UTF-8, without the program name), sets up logging, and runs the selected command.
// "help COMMAND..." and "/?" ask for --help as well.
// An unknown command or option prints the command and "did you mean" and returns
// exit_code::k_usage, as does a log file that cannot be written; --help and --version print to
// console.out and return 0; any exception escaping a command is caught here, logged, and
// returned as exit_code::k_internal.
int run_command_line(CLI::App& app, const CommandTable& commands, const std::vector<std::string>& args,
                     Console& console, const GlobalOptions& globals, const std::string& logger_name);

}  // namespace tfwsl
