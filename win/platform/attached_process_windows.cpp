#include <fmt/format.h>
#include <windows.h>

#include "common/process/process_runner.hpp"
#include "common/process/windows_command_line.hpp"
#include "common/text/utf_convert.hpp"
#include "common/util/windows_error_text.hpp"
#include "win/platform/attached_process.hpp"

namespace tfwsl::cli {
namespace {

// Ctrl-C and Ctrl-Break reach every process of the console: the child (wsl.exe, which passes them
// to the Linux process) handles them, and this process keeps waiting for its exit status.
BOOL WINAPI keep_waiting(DWORD event) { return event == CTRL_C_EVENT || event == CTRL_BREAK_EVENT; }

class IgnoredConsoleBreaks {
 public:
  IgnoredConsoleBreaks() { SetConsoleCtrlHandler(keep_waiting, TRUE); }
  ~IgnoredConsoleBreaks() { SetConsoleCtrlHandler(keep_waiting, FALSE); }
  IgnoredConsoleBreaks(const IgnoredConsoleBreaks&) = delete;
  IgnoredConsoleBreaks& operator=(const IgnoredConsoleBreaks&) = delete;
};

// This process's environment with `extra` set over it, as CreateProcessW's sorted wide block.
std::wstring environment_block(const std::map<std::string, std::string>& extra) {
  std::map<std::wstring, std::wstring> vars;
  if (wchar_t* block = GetEnvironmentStringsW()) {
    for (const wchar_t* p = block; *p; p += wcslen(p) + 1) {
      const std::wstring kv = p;
      const auto eq = kv.find(L'=', 1);  // "=C:=C:\\x" entries start with '='
      if (eq != std::wstring::npos) vars[kv.substr(0, eq)] = kv.substr(eq + 1);
    }
    FreeEnvironmentStringsW(block);
  }
  for (const auto& [key, value] : extra) vars[utf8_to_wide(key)] = utf8_to_wide(value);
  std::wstring out;
  for (const auto& [key, value] : vars) out += key + L"=" + value + L'\0';
  out += L'\0';
  return out;
}

void make_inheritable(DWORD which) {
  HANDLE h = GetStdHandle(which);
  if (h && h != INVALID_HANDLE_VALUE) SetHandleInformation(h, HANDLE_FLAG_INHERIT, HANDLE_FLAG_INHERIT);
}

}  // namespace

Result<int> SystemAttachedRunner::run(const AttachedRequest& request) {
  if (request.argv.empty()) return make_error(ErrorCode::process, "no program to run");
  TFWSL_TRY(program, resolve_program(request.argv[0]));
  std::vector<std::string> argv = request.argv;
  argv[0] = wide_to_utf8(program.wstring());
  std::wstring line = utf8_to_wide(build_windows_command_line(argv));
  std::wstring env = environment_block(request.env);
  std::wstring cwd = request.working_directory ? request.working_directory->wstring() : std::wstring();
  for (DWORD which : {STD_INPUT_HANDLE, STD_OUTPUT_HANDLE, STD_ERROR_HANDLE}) make_inheritable(which);
  STARTUPINFOW startup{};
  startup.cb = sizeof startup;
  startup.dwFlags = STARTF_USESTDHANDLES;
  startup.hStdInput = GetStdHandle(STD_INPUT_HANDLE);
  startup.hStdOutput = GetStdHandle(STD_OUTPUT_HANDLE);
  startup.hStdError = GetStdHandle(STD_ERROR_HANDLE);
  PROCESS_INFORMATION child{};
  IgnoredConsoleBreaks ignored;
  if (!CreateProcessW(nullptr, line.data(), nullptr, nullptr, TRUE, CREATE_UNICODE_ENVIRONMENT, env.data(),
                      cwd.empty() ? nullptr : cwd.c_str(), &startup, &child))
    return make_error(ErrorCode::process,
                      fmt::format("{} cannot be started: {}", request.argv[0], windows_error_text(GetLastError())));
  CloseHandle(child.hThread);
  WaitForSingleObject(child.hProcess, INFINITE);
  DWORD code = 0;
  GetExitCodeProcess(child.hProcess, &code);
  CloseHandle(child.hProcess);
  return code == 0xFFFFFFFFu ? -1 : static_cast<int>(code);
}

}  // namespace tfwsl::cli
