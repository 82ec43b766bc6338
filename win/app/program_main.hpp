#pragma once
// The body of tfwsl's main, shared by the shipped program (main_posix.cpp, main_windows.cpp) and the
// test program (tests/helpers/test_mains): the Console from the process's terminal and environment,
// then `configure` (the test program fills the machine ports; the shipped one passes nothing), then
// run_cli. Arguments reach run_cli as UTF-8 (converted from UTF-16 once, on Windows).

#include <functional>

#include "common/cli/command_line.hpp"

namespace tfwsl::cli {

using ConfigureConsole = std::function<void(Console&)>;

#ifdef _WIN32
int run_program(int argc, wchar_t** argv, const ConfigureConsole& configure);
#else
int run_program(int argc, char** argv, const ConfigureConsole& configure);
#endif

}  // namespace tfwsl::cli
