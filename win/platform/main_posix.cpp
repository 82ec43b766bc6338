// tfwsl on Linux: the same commands as on Windows, built natively (host checks report "skip").
#include <sys/ioctl.h>
#include <unistd.h>

#include <iostream>

#include "win/cli/cli_app.hpp"

namespace {

// The terminal's width: stdout's, else stderr's (where the status line goes), else 80.
std::size_t terminal_columns() {
  for (int fd : {STDOUT_FILENO, STDERR_FILENO}) {
    winsize size{};
    if (isatty(fd) == 1 && ioctl(fd, TIOCGWINSZ, &size) == 0 && size.ws_col > 0) return size.ws_col;
  }
  return 80;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  tfwsl::Console console{std::cout,
                         std::cerr,
                         isatty(STDOUT_FILENO) == 1,
                         isatty(STDERR_FILENO) == 1,
                         isatty(STDIN_FILENO) == 1,
                         tfwsl::process_environment()};
  console.columns = terminal_columns();
  return tfwsl::cli::run_cli(args, console);
}
