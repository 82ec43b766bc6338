#pragma once
// "What is this paste?" for the kinds this folder's parsers read: each function returns a
// confidence in [0, 1] (0: not this kind; >= 0.5: this kind, higher when the evidence is
// unmistakable, e.g. the output's own labels rather than an error that could follow several
// commands). The explain engine compares them with its other recognisers and picks the highest.

#include <string_view>

namespace tfwsl::parse {

double looks_like_wsl_list(std::string_view text);     // wsl -l [-v], wsl --list --online, no-distro
double looks_like_wsl_status(std::string_view text);   // wsl --status, the kernel-update message
double looks_like_wsl_version(std::string_view text);  // wsl --version, the packaged-WSL error
double looks_like_nvidia_smi(std::string_view text);   // table, CSV query, failures

// True when the text shows a wsl.exe command of that kind being run ("wsl -l -v", "wsl.exe --list").
bool mentions_wsl_list_command(std::string_view text);
bool mentions_wsl_status_command(std::string_view text);
bool mentions_wsl_version_command(std::string_view text);

}  // namespace tfwsl::parse
