#include "common/check/command_words.hpp"

#include <algorithm>
#include <array>

namespace tfwsl {

bool starts_known_command(std::string_view word) {
  static const std::array<std::string_view, 15> k_programs = {
      "tfwsl",      "tfwsl.exe",      "tfwsl-agent", "wsl",     "wsl.exe",  "sudo", "python3", "pip",
      "nvidia-smi", "nvidia-smi.exe", "curl",        "netstat", "iptables", "ss",   "cmd.exe"};
  while (!word.empty() && (word.front() == '\'' || word.front() == '`' || word.front() == '(')) word.remove_prefix(1);
  return std::find(k_programs.begin(), k_programs.end(), word) != k_programs.end();
}

}  // namespace tfwsl
