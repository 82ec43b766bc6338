// tfwsl.exe: the shipped program, with the real machine behind every port.
#include "win/app/program_main.hpp"

int wmain(int argc, wchar_t** argv) { return tfwsl::cli::run_program(argc, argv, {}); }
