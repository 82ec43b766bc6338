#include <windows.h>

#include "common/text/utf_convert.hpp"
#include "win/platform/own_executable.hpp"

namespace tfwsl::cli {

std::string own_executable_path() {
  std::wstring buffer(32768, L'\0');
  DWORD n = GetModuleFileNameW(nullptr, buffer.data(), static_cast<DWORD>(buffer.size()));
  buffer.resize(n);
  return wide_to_utf8(buffer);
}

}  // namespace tfwsl::cli
