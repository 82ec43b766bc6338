#pragma once
// Starting the agent's long-lived child with its three pipes, the one part of the child channel
// that differs by platform: child_launch_windows.cpp builds an MSVC-runtime command line (our own
// quoting, common/process/windows_command_line.hpp) and opens no console window;
// child_launch_posix.cpp passes the argv as it is.

#include <boost/process.hpp>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace tfwsl::agent_client {

// `argv[0]` is replaced by `program` (resolved); `env` is added to this process's environment.
boost::process::child launch_child(const std::vector<std::string>& argv, const std::filesystem::path& program,
                                   const std::map<std::string, std::string>& env, boost::process::ipstream& out,
                                   boost::process::ipstream& err, boost::process::opstream& in);

}  // namespace tfwsl::agent_client
