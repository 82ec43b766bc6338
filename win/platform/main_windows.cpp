// tfwsl.exe: wmain receives UTF-16 arguments, converted to UTF-8 once, here; everything after works
// in UTF-8 (the manifest makes UTF-8 the active code page as well).
#include <windows.h>

#include <cstdio>
#include <iostream>

#include "common/text/utf_convert.hpp"
#include "win/cli/cli_app.hpp"
#include "win/platform/console_windows.hpp"

int wmain(int argc, wchar_t** argv) {
  const tfwsl::Utf8ConsoleScope utf8_console;  // the console's code pages come back when tfwsl ends
  std::vector<std::string> args;
  for (int i = 1; i < argc; ++i) args.push_back(tfwsl::wide_to_utf8(argv[i]));
  const tfwsl::ConsoleHandles handles = tfwsl::console_handles();
  tfwsl::Console console{std::cout, std::cerr, handles.out, handles.err, handles.in, tfwsl::process_environment()};
  console.columns = tfwsl::console_columns();
  console.unicode_marks = tfwsl::console_shows_check_marks(handles.out, console.environment);
  // Called only once colour (or the live status line) is chosen: a plain run leaves the console's mode alone.
  console.enable_escape_sequences = [](std::ostream& stream) { return tfwsl::enable_virtual_terminal(stream); };
  int code = tfwsl::cli::run_cli(args, console);
  std::cout.flush();
  return code;
}
