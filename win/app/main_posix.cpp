// tfwsl on Linux: the shipped program, with the real machine behind every port.
#include "win/app/program_main.hpp"

int main(int argc, char** argv) { return tfwsl::cli::run_program(argc, argv, {}); }
