#include "win/wsl/wsl_failure.hpp"

#include <algorithm>
#include <cctype>

#include "common/util/ascii.hpp"

namespace tfwsl::wsl {
namespace {

bool contains(std::string_view text, std::string_view needle) { return text.find(needle) != std::string_view::npos; }

bool is_code_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '/' || c == '_' || c == '-' || c == '.';
}

}  // namespace

const char* to_string(WslFailureKind kind) {
  switch (kind) {
    case WslFailureKind::none:
      return "none";
    case WslFailureKind::cli_too_old:
      return "cli-too-old";
    case WslFailureKind::no_distro:
      return "no-distro";
    case WslFailureKind::distro_not_found:
      return "distro-not-found";
    case WslFailureKind::virtualization_disabled:
      return "virtualization-disabled";
    case WslFailureKind::wsl_not_installed:
      return "wsl-not-installed";
    case WslFailureKind::other:
      return "other";
  }
  return "other";
}

bool is_wsl_error_exit(long long exit_code) { return exit_code == -1 || exit_code == 4294967295LL; }

std::string find_wsl_error_code(std::string_view text) {
  // The code follows the last colon of its line ("Error code: X", "Fehlercode: X", "エラー コード: X").
  std::string found;
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    std::size_t colon = line.rfind(':');
    // A full-width colon (U+FF1A, EF BC 9A) is used by some locales.
    std::size_t wide = line.rfind("\xEF\xBC\x9A");
    std::size_t start = std::string_view::npos;
    if (colon != std::string_view::npos) start = colon + 1;
    if (wide != std::string_view::npos && (start == std::string_view::npos || wide + 3 > start)) start = wide + 3;
    if (start == std::string_view::npos) continue;
    std::string_view rest = line.substr(start);
    while (!rest.empty() && (rest.front() == ' ' || rest.front() == '\t')) rest.remove_prefix(1);
    std::size_t n = 0;
    while (n < rest.size() && is_code_char(rest[n])) ++n;
    std::string_view token = rest.substr(0, n);
    bool wsl_code = token.rfind("Wsl/", 0) == 0;
    bool hresult = token.size() == 10 && token.rfind("0x", 0) == 0;
    if (wsl_code || hresult) {
      std::string_view tail = rest.substr(n);
      bool only_space = std::all_of(tail.begin(), tail.end(), [](char c) { return c == ' ' || c == '\r'; });
      if (only_space) found = std::string(token);
    }
  }
  return found;
}

WslFailure classify_wsl_result(long long exit_code, std::string_view text, std::string_view command) {
  WslFailure f;
  if (exit_code == 0) return f;
  f.code = find_wsl_error_code(text);
  const std::string cmd = "wsl.exe " + std::string(command);
  auto code_has = [&](std::string_view part) { return contains(f.code, part); };

  if (code_has("DEFAULT_DISTRO_NOT_FOUND") ||
      (f.code.empty() && contains(text, "--list --online") && contains(text, "--install"))) {
    f.kind = WslFailureKind::no_distro;
    f.message = "WSL has no Linux distribution installed";
    f.fix = "install one: wsl.exe --install -d Ubuntu-22.04 (then start it once to create your user)";
  } else if (code_has("DISTRO_NOT_FOUND")) {
    f.kind = WslFailureKind::distro_not_found;
    f.message = "WSL has no distribution with that name";
    f.fix = "list the installed ones with 'wsl.exe -l -v' and pass one of them with --distro";
  } else if (code_has("HYPERV_NOT_INSTALLED") || code_has("0x80370102") || code_has("VIRTUALIZATION")) {
    f.kind = WslFailureKind::virtualization_disabled;
    f.message = "WSL 2 cannot start: virtualization or the Virtual Machine Platform is not enabled";
    f.fix =
        "enable virtualization in the firmware (BIOS/UEFI) and run: wsl.exe --install --no-distribution, then restart";
  } else if (code_has("OPTIONAL_COMPONENT") || code_has("0x8007019e") || code_has("0x800701bc") ||
             code_has("WSL_E_WSL_OPTIONAL_COMPONENT_REQUIRED")) {
    f.kind = WslFailureKind::wsl_not_installed;
    f.message = "the Windows Subsystem for Linux is not installed or needs its kernel update";
    f.fix = "run in an administrator terminal: wsl.exe --install --no-distribution, then restart";
  } else if (f.code.empty() && (contains(text, "wsl.exe [") || icontains(text, "invalid command line") ||
                                icontains(text, "invalid option") || contains(text, "--exec, -e"))) {
    // Bad usage prints no code, only the (localized) usage text or "invalid argument": this
    // wsl.exe does not know the option, i.e. it predates it.
    f.kind = WslFailureKind::cli_too_old;
    f.message = cmd + " is not understood by this wsl.exe: an old inbox WSL";
    f.fix = "update to the Store WSL: wsl.exe --update (or wsl.exe --install --no-distribution), then wsl --shutdown";
  } else {
    f.kind = WslFailureKind::other;
    f.message = cmd + " failed" + (f.code.empty() ? " with exit code " + std::to_string(exit_code) : " with " + f.code);
    f.fix = "run '" + cmd + "' in a terminal to see the full message; 'wsl --shutdown' then retry often helps";
  }
  return f;
}

}  // namespace tfwsl::wsl
