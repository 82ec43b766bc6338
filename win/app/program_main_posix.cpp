// tfwsl on Linux: the same commands as on Windows, built natively (host checks report "skip").
#include <sys/ioctl.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "common/cli/process_console.hpp"
#include "win/app/cli_app.hpp"
#include "win/app/program_main.hpp"
#include "win/app/system_machine.hpp"

namespace tfwsl::cli {
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

int run_program(int argc, char** argv, const ConfigureMachine& configure) {
  std::vector<std::string> args(argv + 1, argv + argc);
  Console console = process_console();
  console.columns = terminal_columns();
  SystemMachine system;
  const std::unique_ptr<HostPort> stand_in = configure ? configure(console, system.system_host()) : nullptr;
  Machine machine = stand_in ? system.machine(*stand_in) : system.machine();
  return run_cli(args, console, machine);
}

}  // namespace tfwsl::cli
