#include "common/diagnose/text_platform.hpp"

#include <algorithm>
#include <array>

#include "common/parse/line_tools.hpp"
#include "common/util/ascii.hpp"

namespace tfwsl::diagnose {
namespace {

constexpr std::size_t k_platform_bytes = 1 << 20;

// Signs only native Windows TensorFlow/Python prints: the CUDA DLLs TF loads there (cudart64_110.dll,
// cudnn64_8.dll, cublas64_11.dll, nvcuda.dll), CPython's banner, a Windows site-packages path.
constexpr std::array<std::string_view, 8> k_windows_markers = {"cudart64_",    "cudnn64_",   "cublas64_",
                                                               "nvcuda.dll",   "] on win32", "\\site-packages\\",
                                                               "\\python.exe", "/python.exe"};

bool names_windows_python(std::string_view command) {
  // `C:\Users\me\venv\Scripts\python.exe x.py` or `py -3.10 x.py` (the Windows launcher).
  return icontains(command, "python.exe") || icontains(command, "\\scripts\\") ||
         (command.substr(0, 3) == "py " && command.size() > 3);
}

// The first word of a command typed at a Windows prompt starts Windows' own Python tooling.
bool runs_windows_python(std::string_view command) {
  const std::string first = ascii_lower(command.substr(0, command.find(' ')));
  for (std::string_view tool : {"python", "python3", "py", "pip", "pip3", "ipython", "jupyter", "conda"})
    if (first == tool || first == std::string(tool) + ".exe") return true;
  return false;
}

}  // namespace

std::string text_platform(std::string_view text, const std::vector<std::string>& commands,
                          const std::vector<std::string>& windows_commands) {
  const std::string lower = ascii_lower(text.substr(0, std::min(text.size(), k_platform_bytes)));
  const bool marked = std::any_of(k_windows_markers.begin(), k_windows_markers.end(),
                                  [&lower](std::string_view m) { return lower.find(m) != std::string::npos; });
  const bool by_command = std::any_of(commands.begin(), commands.end(), names_windows_python) ||
                          std::any_of(windows_commands.begin(), windows_commands.end(), runs_windows_python);
  return marked || by_command ? "windows" : "";
}

}  // namespace tfwsl::diagnose
