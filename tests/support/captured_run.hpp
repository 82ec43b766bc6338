#pragma once
// Runs a command-line entry point (cli::run_cli, agent::run_agent_cli) on string streams, with no
// terminal, and gives back what a user would have seen: the exit code, stdout and stderr.

#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "common/cli/command_line.hpp"

namespace tfwsl::test {

struct Captured {
  int code;
  std::string out;
  std::string err;
};

// `text` with each run of spaces and line breaks made one space: what a message says, wherever it
// wrapped at the console's 80 columns (common/cli/fitted_output.hpp).
inline std::string unwrapped(const std::string& text) {
  std::string out;
  for (char c : text) {
    const bool blank = c == ' ' || c == '\n';
    if (!blank)
      out += c;
    else if (!out.empty() && out.back() != ' ')
      out += ' ';
  }
  return out;
}

template <class EntryPoint>
Captured run_captured(EntryPoint entry_point, std::vector<std::string> args) {
  std::ostringstream out, err;
  Console console{out, err, false};
  int code = entry_point(args, console);
  return {code, out.str(), err.str()};
}

}  // namespace tfwsl::test
