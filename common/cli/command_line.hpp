#pragma once
// What both executables' command lines share: CLI11 parsing with "did you mean", the -v/--log-file
// options, the single catch site, and the exit-code table (common/core/exit_codes.hpp).

#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "common/core/logging.hpp"

namespace tfwsl {

// Where a command writes: stdout is for results only, stderr for messages. Tests pass string streams.
struct Console {
  std::ostream& out;
  std::ostream& err;
  bool out_is_terminal = false;
};

struct GlobalOptions {
  int verbosity = 0;
  std::string log_file;
};

// Adds -v (repeatable) and --log-file to the app.
void add_global_options(CLI::App& app, GlobalOptions& options);

// The subcommands of an app and what runs each one (ninja-style table: one file per command adds
// its entry). A command returns its exit code.
class CommandTable {
 public:
  void add(CLI::App* subcommand, std::function<int()> run);
  const std::function<int()>* find(const CLI::App* subcommand) const;

 private:
  std::vector<std::pair<const CLI::App*, std::function<int()>>> m_entries;
};

// Parses args (UTF-8, without the program name), sets up logging, and runs the selected command.
// An unknown subcommand prints "did you mean" and returns exit_code::k_usage; --help and --version
// print to console.out and return 0; any exception escaping a command is caught here, logged, and
// returned as exit_code::k_internal.
int run_command_line(CLI::App& app, const CommandTable& commands, const std::vector<std::string>& args,
                     Console& console, const GlobalOptions& globals, const std::string& logger_name);

}  // namespace tfwsl
