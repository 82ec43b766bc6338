#pragma once
// The body of tfwsl's main, shared by the shipped program (main_posix.cpp, main_windows.cpp) and the
// test program (tests/helpers/test_mains): the Console from the process's terminal and environment,
// the one Machine of real ports (system_machine.hpp), then `configure` (the test program returns a
// host port of its own that stands in for the real one; the shipped program passes nothing), then
// run_cli. Arguments reach run_cli as UTF-8 (converted from UTF-16 once, on Windows).

#include <functional>
#include <memory>

#include "common/cli/command_line.hpp"
#include "win/app/system_machine.hpp"

namespace tfwsl::cli {

// Returns the host port to use instead of `real` (null: the real one).
using ConfigureMachine = std::function<std::unique_ptr<HostPort>(Console&, SystemHost& real)>;

#ifdef _WIN32
int run_program(int argc, wchar_t** argv, const ConfigureMachine& configure);
#else
int run_program(int argc, char** argv, const ConfigureMachine& configure);
#endif

}  // namespace tfwsl::cli
