#include <windows.h>

#include "common/util/windows_error_text.hpp"

namespace tfwsl {
namespace {

std::string utf8_of(const wchar_t* text, int length) {
  const int bytes = WideCharToMultiByte(CP_UTF8, 0, text, length, nullptr, 0, nullptr, nullptr);
  std::string out(static_cast<std::size_t>(bytes > 0 ? bytes : 0), '\0');
  if (bytes > 0) WideCharToMultiByte(CP_UTF8, 0, text, length, out.data(), bytes, nullptr, nullptr);
  return out;
}

}  // namespace

std::string windows_error_text(unsigned long code) {
  wchar_t* buffer = nullptr;
  const DWORD length =
      FormatMessageW(FORMAT_MESSAGE_ALLOCATE_BUFFER | FORMAT_MESSAGE_FROM_SYSTEM | FORMAT_MESSAGE_IGNORE_INSERTS,
                     nullptr, code, 0, reinterpret_cast<LPWSTR>(&buffer), 0, nullptr);
  std::string words = length > 0 && buffer ? utf8_of(buffer, static_cast<int>(length)) : std::string();
  if (buffer) LocalFree(buffer);
  while (!words.empty() && (words.back() == '\n' || words.back() == '\r' || words.back() == ' ' || words.back() == '.'))
    words.pop_back();
  const std::string number = "Windows error " + std::to_string(code);
  return words.empty() ? number : words + " (" + number + ")";
}

}  // namespace tfwsl
