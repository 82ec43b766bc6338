// The real process runner: Boost.Process v1 (the v2 API of Boost 1.81 does not build with MinGW).
// stdout and stderr are drained concurrently through asio so a child that fills one pipe while we
// read the other cannot deadlock; the timeout kills the child and keeps what it wrote so far.

#include <boost/asio/io_context.hpp>
#include <boost/process.hpp>

#include <spdlog/spdlog.h>

#include <algorithm>
#include <future>
#include <thread>

#include "common/process/process_launch.hpp"
#include "common/process/process_runner.hpp"
#include "common/process/windows_command_line.hpp"
#include "common/text/utf_convert.hpp"

namespace bp = boost::process;

namespace tfwsl {
namespace {

// Collects a future's value; a future whose operation was abandoned (the child killed, a grandchild
// still holding the pipe) yields what can be had: nothing.
std::string take(std::future<std::string>& f) {
  if (!f.valid()) return {};
  if (f.wait_for(std::chrono::seconds(0)) != std::future_status::ready) return {};
  try {
    return f.get();
  } catch (const std::exception&) {
    return {};
  }
}

}  // namespace

std::string describe_command(const std::vector<std::string>& argv) {
  return build_windows_command_line(argv);
}

Result<std::filesystem::path> resolve_program(const std::string& name) {
  std::filesystem::path p = utf8_to_wide(name);
  if (names_a_path(name)) {
    std::error_code ec;
    if (std::filesystem::is_regular_file(p, ec)) return p;
    return make_error(ErrorCode::not_found, "program not found: " + name,
                      "no regular file at that path");
  }
  auto found = bp::search_path(p);
  if (found.empty()) {
    return make_error(ErrorCode::not_found, "program '" + name + "' not found in PATH",
                      "install it or give its full path");
  }
  return std::filesystem::path(found);
}

Result<ProcessOutcome> SystemProcessRunner::run(const ProcessRequest& request) {
  if (request.argv.empty()) return make_error(ErrorCode::internal, "no program given to run");
  auto program = resolve_program(request.argv[0]);
  if (!program) return tl::unexpected(program.error());

  boost::asio::io_context ios;
  ChildLaunch launch;
  launch.input = request.stdin_data.value_or(std::string());

  spdlog::debug("running: {}", describe_command(request.argv));
  const auto started = std::chrono::steady_clock::now();
  bp::child child;
  try {
    child = start_child(request, *program, launch, ios);
  } catch (const std::exception& e) {
    return make_error(ErrorCode::process, "could not start " + request.argv[0], e.what());
  }
  if (launch.error) {
    return make_error(ErrorCode::process, "could not start " + request.argv[0],
                      describe_command(request.argv) + ": " + launch.error.message());
  }

  ProcessOutcome outcome;
  const auto deadline = started + request.timeout;
  std::error_code ec;
  // Read its pipes until the child ends (or the deadline): not until the pipes close, which a
  // grandchild it left running could hold open to the deadline.
  while (!child_has_ended(child) && std::chrono::steady_clock::now() < deadline) {
    if (ios.stopped()) std::this_thread::sleep_for(std::chrono::milliseconds(2));
    else ios.run_for(std::min<std::chrono::steady_clock::duration>(std::chrono::milliseconds(20), deadline - std::chrono::steady_clock::now()));
  }
  if (!child_has_ended(child)) {
    outcome.timed_out = true;
    spdlog::warn("{} ran past its {} ms limit and was stopped", request.argv[0], request.timeout.count());
  }
  end_child_tree(child);  // on every path: what it started and left behind ends with it
  child.wait(ec);
  // Pipes close once the child's group is gone; drain what is left, but never wait on a grandchild
  // that inherited them and escaped the group (a daemon, or anything on Windows).
  ios.restart();
  ios.run_for(std::chrono::seconds(2));
  outcome.exit_code = child.exit_code();
  outcome.out = take(launch.out);
  outcome.err = take(launch.err);
  outcome.elapsed =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started);
  spdlog::debug("{} exited {} after {} ms", request.argv[0], outcome.exit_code, outcome.elapsed.count());
  return outcome;
}

}  // namespace tfwsl
