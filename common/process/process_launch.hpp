#pragma once
// The platform half of SystemProcessRunner: how a program name is told from a path, and how a
// child is started with its pipes (Windows: our own command line, a wide environment, no console
// window; elsewhere: an argv). Implemented in process_launch_windows.cpp / process_launch_posix.cpp.

#include <boost/asio/io_context.hpp>
#include <boost/process/child.hpp>
#include <filesystem>
#include <stop_token>
#include <string>
#include <system_error>

#include "common/process/pipe_collector.hpp"
#include "common/process/process_runner.hpp"

namespace tfwsl {

// What a started child's pipes deliver, and why it could not start.
struct ChildLaunch {
  explicit ChildLaunch(boost::asio::io_context& ios) : out(ios), err(ios) {}
  std::string input;  // written to its stdin
  PipeCollector out, err;
  std::error_code error;
};

// True when `name` holds a folder part (run as given) rather than a bare name (searched in PATH).
bool names_a_path(const std::string& name);

// Starts request.argv with `program` in its place, stdout and stderr handed to launch.out /
// launch.err (the caller starts their reads). Boost.Process may also throw; the caller catches. On POSIX the child is
// contained (contained_child.hpp): it leads a process group of its own and dies with this process,
// and everything it started with it.
boost::process::child start_child(const ProcessRequest& request, const std::filesystem::path& program,
                                  ChildLaunch& launch, boost::asio::io_context& ios);

// True once the child has ended (POSIX: not reaped yet, so its group's id stays reserved).
bool child_has_ended(boost::process::child& child);

// Stops what is left of the child, on every path (a timeout, and after its own exit): POSIX:
// SIGKILL to its process group, which ends the program and whatever it started and left running
// (a module's `sleep`, a training script's workers holding the GPU); Windows: the child itself
// while it still runs.
void end_child_tree(boost::process::child& child);

// SystemProcessRunner::run that also ends the child once `stop` is requested, as at its timeout
// (outcome.timed_out): StoppableProcessRunner's, for a caller that is shutting down.
Result<ProcessOutcome> run_system_child(const ProcessRequest& request, const std::stop_token& stop);

}  // namespace tfwsl
