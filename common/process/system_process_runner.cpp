// The real process runner: Boost.Process v1 (the v2 API of Boost 1.81 does not build with MinGW).
// stdout and stderr are drained concurrently through asio so a child that fills one pipe while we
// read the other cannot deadlock; the timeout kills the child and keeps what it wrote so far.

#include <spdlog/spdlog.h>

#include <algorithm>
#include <boost/asio/io_context.hpp>
#include <boost/process.hpp>
#include <chrono>
#include <thread>

#include "common/process/process_launch.hpp"
#include "common/process/process_runner.hpp"
#include "common/process/stoppable_process_runner.hpp"
#include "common/process/windows_command_line.hpp"
#include "common/text/utf_convert.hpp"
#include "common/util/visible_text.hpp"

namespace bp = boost::process;

namespace tfwsl {
namespace {

// How long the pipes are drained after the child ended, for a writer that outlives it.
constexpr std::chrono::seconds k_drain_grace{2};

// Runs the pipes' reads until both reached their end or `grace` passed.
void drain_until_ended(boost::asio::io_context& ios, ChildLaunch& launch, std::chrono::milliseconds grace) {
  const auto until = std::chrono::steady_clock::now() + grace;
  ios.restart();
  while (!(launch.out.ended() && launch.err.ended()) && std::chrono::steady_clock::now() < until) {
    if (ios.run_for(std::chrono::milliseconds(20)) == 0 && ios.stopped()) ios.restart();
  }
}

}  // namespace

std::string describe_command(const std::vector<std::string>& argv) {
  return visible_text(build_windows_command_line(argv));  // for a message: what a child was, made visible
}

Result<std::filesystem::path> resolve_program(const std::string& name) {
  std::filesystem::path p = utf8_to_wide(name);
  if (names_a_path(name)) {
    std::error_code ec;
    if (std::filesystem::is_regular_file(p, ec)) return p;
    return make_error(ErrorCode::not_found, "program not found: " + name, "no regular file at that path");
  }
  auto found = bp::search_path(p);
  if (found.empty()) {
    return make_error(ErrorCode::not_found, "program '" + name + "' not found in PATH",
                      "install it or give its full path");
  }
  return std::filesystem::path(found);
}

Result<ProcessOutcome> SystemProcessRunner::run(const ProcessRequest& request) { return run_system_child(request, {}); }

Result<ProcessOutcome> StoppableProcessRunner::run(const ProcessRequest& request) {
  return run_system_child(request, m_stop);
}

Result<ProcessOutcome> run_system_child(const ProcessRequest& request, const std::stop_token& stop) {
  if (request.argv.empty()) return make_error(ErrorCode::internal, "no program given to run");
  auto program = resolve_program(request.argv[0]);
  if (!program) return tl::unexpected(program.error());

  boost::asio::io_context ios;
  ChildLaunch launch(ios);
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

  if (request.on_stderr) launch.err.forward_to(request.on_stderr);
  launch.out.start();
  launch.err.start();
  ProcessOutcome outcome;
  const auto deadline = started + request.timeout;
  std::error_code ec;
  // Read its pipes until the child ends (or the deadline): not until the pipes close, which a
  // grandchild it left running could hold open to the deadline.
  while (!child_has_ended(child) && std::chrono::steady_clock::now() < deadline && !stop.stop_requested()) {
    if (ios.stopped())
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    else
      ios.run_for(std::min<std::chrono::steady_clock::duration>(std::chrono::milliseconds(20),
                                                                deadline - std::chrono::steady_clock::now()));
  }
  if (!child_has_ended(child)) {
    outcome.timed_out = true;
    if (stop.stop_requested())
      spdlog::info("{} was stopped: its caller is stopping", request.argv[0]);
    else
      spdlog::warn("{} ran past its {} ms limit and was stopped", request.argv[0], request.timeout.count());
  }
  end_child_tree(child);  // on every path: what it started and left behind ends with it
  child.wait(ec);
  // Pipes close once the child's group is gone; drain what is left. A grandchild that inherited
  // them and escaped the group (a daemon; on Windows, anything, Wine's conhost included) may hold
  // them open: never wait on it past a short grace, and keep every byte read by then.
  drain_until_ended(ios, launch, k_drain_grace);
  outcome.exit_code = child.exit_code();
  outcome.out = launch.out.take();
  outcome.err = launch.err.take();
  if (!launch.out.ended() || !launch.err.ended())
    spdlog::debug("{}: its output pipes were still open {} s after it ended; kept what it wrote", request.argv[0],
                  k_drain_grace.count());
  outcome.elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started);
  spdlog::debug("{} exited {} after {} ms", request.argv[0], outcome.exit_code, outcome.elapsed.count());
  return outcome;
}

}  // namespace tfwsl
