#include "win/platform/console_windows.hpp"

#include <windows.h>

#include <atomic>
#include <iostream>
#include <optional>
#include <string>

namespace tfwsl {
namespace {

bool is_console(DWORD which) {
  HANDLE handle = GetStdHandle(which);
  DWORD mode = 0;
  return handle != INVALID_HANDLE_VALUE && handle != nullptr && GetConsoleMode(handle, &mode);
}

// The console's own code pages, for the handler below (it runs on a thread of its own).
std::atomic<UINT> g_output_code_page{0};
std::atomic<UINT> g_input_code_page{0};

void restore_code_pages() {
  if (UINT cp = g_output_code_page.exchange(0)) SetConsoleOutputCP(cp);
  if (UINT cp = g_input_code_page.exchange(0)) SetConsoleCP(cp);
}

// Registered first, so called last: only when no other handler (a push's cancel) took the event and
// the process is about to end. FALSE lets Windows end it as it would have.
BOOL WINAPI restore_on_console_event(DWORD) {
  restore_code_pages();
  return FALSE;
}

}  // namespace

Utf8ConsoleScope::Utf8ConsoleScope() {
  g_output_code_page = GetConsoleOutputCP();
  g_input_code_page = GetConsoleCP();
  SetConsoleCtrlHandler(restore_on_console_event, TRUE);
  SetConsoleOutputCP(CP_UTF8);
  SetConsoleCP(CP_UTF8);
}

Utf8ConsoleScope::~Utf8ConsoleScope() {
  restore_code_pages();
  SetConsoleCtrlHandler(restore_on_console_event, FALSE);
}

ConsoleHandles console_handles() {
  return {is_console(STD_OUTPUT_HANDLE), is_console(STD_ERROR_HANDLE), is_console(STD_INPUT_HANDLE)};
}

std::size_t console_columns() {
  for (DWORD which : {STD_OUTPUT_HANDLE, STD_ERROR_HANDLE}) {
    CONSOLE_SCREEN_BUFFER_INFO info{};
    if (GetConsoleScreenBufferInfo(GetStdHandle(which), &info)) {
      const int width = info.srWindow.Right - info.srWindow.Left + 1;
      if (width > 0) return static_cast<std::size_t>(width);
    }
  }
  return 80;
}

bool console_shows_check_marks(bool out_is_console, const EnvironmentLookup& environment) {
  if (!out_is_console) return true;
  auto set = [&](const char* name) {
    auto value = environment ? environment(name) : std::nullopt;
    return value && !value->empty();
  };
  return set("WT_SESSION") || (environment && environment("ConEmuANSI") == std::optional<std::string>("ON"));
}

bool enable_virtual_terminal(const std::ostream& stream) {
  HANDLE handle = GetStdHandle(&stream == &std::cout ? STD_OUTPUT_HANDLE : STD_ERROR_HANDLE);
  DWORD mode = 0;
  if (handle == INVALID_HANDLE_VALUE || handle == nullptr || !GetConsoleMode(handle, &mode)) return false;
  if (mode & ENABLE_VIRTUAL_TERMINAL_PROCESSING) return true;
  return SetConsoleMode(handle, mode | ENABLE_VIRTUAL_TERMINAL_PROCESSING) != 0;
}

}  // namespace tfwsl
