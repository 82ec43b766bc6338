#pragma once
// `tfwsl explain [--json] FILE|-|TEXT...`: what a pasted output, a log or an error code says, and what to do.

#include <filesystem>
#include <string>
#include <vector>

#include "common/cli/command_line.hpp"
#include "common/core/error.hpp"

namespace tfwsl::cli {

void register_explain_command(CLI::App& app, CommandTable& commands, Console& console);

// The file named on the command line: a UTF-8 name as such, any other bytes as the POSIX name they are.
std::filesystem::path explain_input_path(const std::string& argument);

// The bytes to explain: the file (at most 64 MB; a folder or a missing file is an error that says
// what to pass instead) or, for "-", standard input.
Result<std::string> read_explain_input(const std::string& input);

// What the words after `tfwsl explain` are: "-" (standard input), a file, or text to explain as it
// stands (`tfwsl explain 0x80370102`, `tfwsl explain Wsl/Service/CreateInstance/E_ACCESSDENIED`):
// every argument that is not a file and does not look like a file name (a folder part, or a name
// ending in .txt, .log and the like, which is then an error: a mistyped file name).
enum class ExplainSource { standard_input, file, text };
ExplainSource explain_source(const std::vector<std::string>& words);

}  // namespace tfwsl::cli
