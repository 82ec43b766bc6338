#pragma once
// The programs whose command lines the fixes and help texts name ("tfwsl", "wsl", "sudo", ...):
// where a command starts, so that text wrapped for a terminal never breaks inside one
// (common/util/text_wrap.hpp).

#include <string_view>

namespace tfwsl {

// `word` is such a program's name (a leading quote or parenthesis ignored).
bool starts_known_command(std::string_view word);

}  // namespace tfwsl
