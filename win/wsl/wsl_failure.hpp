#pragma once
// What a failed wsl.exe management call means. wsl.exe answers every error with exit code -1
// (4294967295 as an unsigned exit code) and, mostly, a localized message followed by
// "Error code: Wsl/...". The message is localized but the code is not, so the code decides; for the
// two messages printed without a code (no distribution, bad usage) language-neutral markers decide.

#include <string>
#include <string_view>

namespace tfwsl::wsl {

enum class WslFailureKind {
  none,                     // exit 0: not a failure
  cli_too_old,              // usage text or "invalid command line argument": an old inbox wsl.exe
  no_distro,                // no distribution installed (WSL_E_DEFAULT_DISTRO_NOT_FOUND)
  distro_not_found,         // the named distribution does not exist
  virtualization_disabled,  // Virtual Machine Platform off or virtualization off in firmware
  wsl_not_installed,        // the WSL optional component / package is missing
  other,                    // any other error code or non-zero exit
};

const char* to_string(WslFailureKind kind);

struct WslFailure {
  WslFailureKind kind = WslFailureKind::none;
  std::string code;     // "Wsl/Service/WSL_E_DISTRO_NOT_FOUND" when printed, else empty
  std::string message;  // for the user: what happened
  std::string fix;      // what to do
};

// wsl.exe's -1 arrives as -1 (Windows, 32-bit int) or 4294967295 / 255 depending on who reports it.
bool is_wsl_error_exit(long long exit_code);

// The "Error code: ..." value of a wsl.exe message, in any language (the label is localized, the
// code is not: it is the last "Wsl/..." or "0x........" token after a colon). Empty when absent.
std::string find_wsl_error_code(std::string_view text);

// Classifies a management command's result (decoded text of stdout+stderr). `command` ("-l -v")
// is only used in the message.
WslFailure classify_wsl_result(long long exit_code, std::string_view text, std::string_view command);

}  // namespace tfwsl::wsl
