#pragma once
// Where the doctor's Linux-side checks come from on this build: on Windows through the agent
// bridge (win/commands/doctor_command.cpp), on the native Linux build in-process with the agent's
// own check library (linux_side_posix.cpp), so every id still appears.

#include <optional>
#include <string>

#include "common/doctor/doctor.hpp"

namespace tfwsl::cli {

// Native Linux: runs the agent's probes and checks in this process, judged by `profile` (a
// built-in name or a file). Windows: nothing.
std::optional<doctor::LinuxSide> in_process_linux_side(const std::string& profile);

// The path of the running executable (the shipped agent sits next to it).
std::string own_executable_path();

}  // namespace tfwsl::cli
