#include "win/platform/console_windows.hpp"

#include <windows.h>

#include <iostream>

namespace tfwsl {
namespace {

bool is_console(DWORD which) {
  HANDLE handle = GetStdHandle(which);
  DWORD mode = 0;
  return handle != INVALID_HANDLE_VALUE && handle != nullptr && GetConsoleMode(handle, &mode);
}

}  // namespace

void use_utf8_console() {
  SetConsoleOutputCP(CP_UTF8);
  SetConsoleCP(CP_UTF8);
}

ConsoleHandles console_handles() {
  return {is_console(STD_OUTPUT_HANDLE), is_console(STD_ERROR_HANDLE), is_console(STD_INPUT_HANDLE)};
}

bool enable_virtual_terminal(const std::ostream& stream) {
  HANDLE handle = GetStdHandle(&stream == &std::cout ? STD_OUTPUT_HANDLE : STD_ERROR_HANDLE);
  DWORD mode = 0;
  if (handle == INVALID_HANDLE_VALUE || handle == nullptr || !GetConsoleMode(handle, &mode)) return false;
  if (mode & ENABLE_VIRTUAL_TERMINAL_PROCESSING) return true;
  return SetConsoleMode(handle, mode | ENABLE_VIRTUAL_TERMINAL_PROCESSING) != 0;
}

}  // namespace tfwsl
