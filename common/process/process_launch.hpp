#pragma once
// The platform half of SystemProcessRunner: how a program name is told from a path, and how a
// child is started with its pipes (Windows: our own command line, a wide environment, no console
// window; elsewhere: an argv). Implemented in process_launch_windows.cpp / process_launch_posix.cpp.

#include <filesystem>
#include <future>
#include <string>
#include <system_error>

#include <boost/asio/io_context.hpp>
#include <boost/process/child.hpp>

#include "common/process/process_runner.hpp"

namespace tfwsl {

// What a started child's pipes deliver, and why it could not start.
struct ChildLaunch {
  std::string input;  // written to its stdin
  std::future<std::string> out, err;
  std::error_code error;
};

// True when `name` holds a folder part (run as given) rather than a bare name (searched in PATH).
bool names_a_path(const std::string& name);

// Starts request.argv with `program` in its place, stdout and stderr drained through `ios` into
// launch.out / launch.err. Boost.Process may also throw; the caller catches.
boost::process::child start_child(const ProcessRequest& request, const std::filesystem::path& program,
                                  ChildLaunch& launch, boost::asio::io_context& ios);

}  // namespace tfwsl
