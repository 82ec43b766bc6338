#pragma once
// Where a pasted text came from, so that a fix fits it: a log written by TensorFlow on native
// Windows (it loads cudart64_110.dll, not libcudart.so; its Python says "on win32"; its paths are
// C:\...) wants the native route's fix or the move to WSL 2, in cmd/PowerShell syntax, not a bash
// command inside a distro.

#include <string>
#include <string_view>
#include <vector>

namespace tfwsl::diagnose {

// "windows" when the text (its first megabyte) or a command shown at a prompt is native Windows
// Python/TensorFlow: `windows_commands` are those typed at a PowerShell or cmd.exe prompt, where
// `python train.py` runs Windows' Python (`wsl python3 ...` does not). Empty when nothing says so
// (Linux, WSL, or no sign either way).
std::string text_platform(std::string_view text, const std::vector<std::string>& commands,
                          const std::vector<std::string>& windows_commands);

}  // namespace tfwsl::diagnose
