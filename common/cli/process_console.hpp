#pragma once
// The Console of this process on POSIX: the standard streams, whether each is a terminal (isatty)
// and the process's environment. The POSIX mains of tfwsl and tfwsl-agent start from it (Windows
// builds its own from the console handles: win/app/program_main_windows.cpp).

#include "common/cli/command_line.hpp"

namespace tfwsl {

#ifndef _WIN32
Console process_console();
#endif

}  // namespace tfwsl
