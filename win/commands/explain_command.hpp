#pragma once
// `tfwsl explain [--json] FILE|-`: what a pasted output or log says, and what to do about it.

#include <filesystem>
#include <string>

#include "common/cli/command_line.hpp"
#include "common/core/error.hpp"

namespace tfwsl::cli {

void register_explain_command(CLI::App& app, CommandTable& commands, Console& console);

// The file named on the command line: a UTF-8 name as such, any other bytes as the POSIX name they are.
std::filesystem::path explain_input_path(const std::string& argument);

// The bytes to explain: the file (at most 64 MB; a folder or a missing file is an error that says
// what to pass instead) or, for "-", standard input.
Result<std::string> read_explain_input(const std::string& input);

}  // namespace tfwsl::cli
