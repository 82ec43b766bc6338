// tfwsl on Linux: the same commands as on Windows, built natively (host checks report "skip").
#include <unistd.h>

#include <iostream>

#include "win/cli/cli_app.hpp"

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  tfwsl::Console console{std::cout,
                         std::cerr,
                         isatty(STDOUT_FILENO) == 1,
                         isatty(STDERR_FILENO) == 1,
                         isatty(STDIN_FILENO) == 1,
                         tfwsl::process_environment()};
  return tfwsl::cli::run_cli(args, console);
}
