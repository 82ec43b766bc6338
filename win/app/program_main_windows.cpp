// tfwsl.exe: wmain receives UTF-16 arguments, converted to UTF-8 once, here; everything after works
// in UTF-8 (the manifest makes UTF-8 the active code page as well).
#include <fcntl.h>
#include <io.h>
#include <windows.h>

#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "common/text/utf_convert.hpp"
#include "win/app/cli_app.hpp"
#include "win/app/program_main.hpp"
#include "win/app/system_machine.hpp"
#include "win/platform/console_windows.hpp"

namespace tfwsl::cli {

int run_program(int argc, wchar_t** argv, const ConfigureMachine& configure) {
  const Utf8ConsoleScope utf8_console;  // the console's code pages come back when tfwsl ends
  std::vector<std::string> args;
  for (int i = 1; i < argc; ++i) args.push_back(wide_to_utf8(argv[i]));
  const ConsoleHandles handles = console_handles();
  Console console{std::cout, std::cerr, handles.out, handles.err, handles.in, process_environment()};
  console.columns = console_columns();
  console.unicode_marks = console_shows_check_marks(handles.out, console.environment);
  // Called only once colour (or the live status line) is chosen: a plain run leaves the console's mode alone.
  console.enable_escape_sequences = [](std::ostream& stream) { return enable_virtual_terminal(stream); };
  console.out_as_bytes = [] {
    std::cout.flush();
    _setmode(_fileno(stdout), _O_BINARY);
  };
  SystemMachine system;
  const std::unique_ptr<HostPort> stand_in = configure ? configure(console, system.system_host()) : nullptr;
  Machine machine = stand_in ? system.machine(*stand_in) : system.machine();
  int code = run_cli(args, console, machine);
  std::cout.flush();
  return code;
}

}  // namespace tfwsl::cli
