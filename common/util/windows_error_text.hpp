#pragma once
// A Windows error number in words, as Windows says it (FormatMessageW), with the number:
// "The process cannot access the file because it is being used by another process (Windows error 32)".
// Windows builds only (windows_error_text_windows.cpp).

#include <string>

namespace tfwsl {

std::string windows_error_text(unsigned long code);

}  // namespace tfwsl
