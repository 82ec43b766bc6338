// Boost.Process v1: stdin through an opstream, stdout/stderr through the pipes of two ipstreams,
// read by two threads into buffers, so reads can time out and a chatty stderr never blocks the
// child. The readers are owned and always joined: they wait for data in slices (pipe_wait.hpp) and
// stop when told, so none is left blocked in a read when the channel (or the program) ends.
#include "win/agent_client/child_channel.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "common/process/process_runner.hpp"
#include "win/agent_client/broken_pipe.hpp"
#include "win/agent_client/child_launch.hpp"
#include "win/agent_client/pipe_wait.hpp"

namespace bp = boost::process;

namespace tfwsl::agent_client {
namespace {

// Straight into the pipe, never through opstream's buffer: Boost.Process 1.81's basic_pipebuf
// mistakes a broken pipe on Windows (WriteFile's ERROR_NO_DATA, reported as 0 bytes written) for
// progress and then writes past its buffer (boost/process/pipe.hpp, _write_impl and overflow).
// POSIX reports the broken pipe by throwing (EPIPE, with SIGPIPE blocked by the caller).
bool write_all(bp::pipe& pipe, std::string_view bytes) {
  try {
    while (!bytes.empty()) {
      const auto chunk = static_cast<bp::pipe::int_type>(std::min<std::size_t>(bytes.size(), 1u << 20));
      const auto n = pipe.write(bytes.data(), chunk);
      if (n <= 0) return false;
      bytes.remove_prefix(static_cast<std::size_t>(n));
    }
  } catch (const std::exception&) {
    return false;
  }
  return true;
}

class SystemChildChannel final : public ChildChannel {
 public:
  SystemChildChannel() = default;
  ~SystemChildChannel() override { finish(std::chrono::seconds(3)); }

  void launch(const std::vector<std::string>& argv, const std::filesystem::path& program,
              const std::map<std::string, std::string>& env) {
    m_child = launch_child(argv, program, env, m_out, m_err, m_in);
    m_out_reader =
        std::thread([state = m_state] { drain(*state, state->out.pipe(), state->out_buffer, state->out_eof); });
    m_err_reader =
        std::thread([state = m_state] { drain(*state, state->err.pipe(), state->err_buffer, state->err_eof); });
  }

  Status write(std::string_view bytes) override {
    std::lock_guard lock(m_write_mutex);
    if (m_input_closed) return make_error(ErrorCode::io, "the agent's input is already closed");
    bool written = false;
    without_sigpipe([&] { written = write_all(m_in.pipe(), bytes); });
    if (!written) return make_error(ErrorCode::io, "could not write to the agent (it has exited)");
    return {};
  }

  void close_input() override {
    std::lock_guard lock(m_write_mutex);
    if (m_input_closed) return;
    m_input_closed = true;
    m_in.pipe().close();
  }

  Result<std::string> read_line(std::chrono::milliseconds timeout) override {
    std::unique_lock lock(m_mutex);
    std::size_t nl = std::string::npos;
    bool ok =
        m_cv.wait_for(lock, timeout, [&] { return (nl = m_out_buffer.find('\n')) != std::string::npos || m_out_eof; });
    if (nl == std::string::npos) {
      if (!ok)
        return make_error(ErrorCode::timeout, "no answer within " + std::to_string(timeout.count() / 1000) + " s");
      return make_error(ErrorCode::process, "the process ended before answering");
    }
    std::string line = m_out_buffer.substr(0, nl);
    m_out_buffer.erase(0, nl + 1);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    return line;
  }

  Result<std::string> read_exact(std::size_t n, std::chrono::milliseconds timeout) override {
    std::unique_lock lock(m_mutex);
    bool ok = m_cv.wait_for(lock, timeout, [&] { return m_out_buffer.size() >= n || m_out_eof; });
    if (m_out_buffer.size() < n) {
      if (!ok) return make_error(ErrorCode::timeout, "the agent did not answer in time");
      return make_error(ErrorCode::process, "the agent's output ended mid-answer");
    }
    std::string bytes = m_out_buffer.substr(0, n);
    m_out_buffer.erase(0, n);
    return bytes;
  }

  bool running() override {
    std::error_code ec;
    return m_child.valid() && m_child.running(ec);
  }

  std::optional<int> exit_code() override {
    if (running()) return std::nullopt;
    std::error_code ec;
    m_child.wait(ec);
    return m_child.exit_code();
  }

  std::string stderr_text() override {
    std::lock_guard lock(m_mutex);
    return m_err_buffer;
  }

  void finish(std::chrono::milliseconds grace) override {
    if (m_finished) return;
    m_finished = true;
    close_input();
    std::error_code ec;
    if (m_child.valid() && !m_child.wait_for(grace, ec)) m_child.terminate(ec);
    if (m_child.valid()) m_child.wait(ec);
    // The readers end at EOF, which comes once the child (and anything holding its pipes) is gone.
    // A grandchild that keeps a pipe open would keep them reading: after 2 s they are told to stop,
    // and they do within one wait slice. Either way both are joined here.
    bool ended = false;
    {
      std::unique_lock lock(m_mutex);
      ended = m_cv.wait_for(lock, std::chrono::seconds(2), [&] { return m_out_eof && m_err_eof; });
    }
    if (!ended) spdlog::debug("the agent's pipes are still open after it exited; stopping their readers");
    m_state->stop = true;
    for (std::thread* reader : {&m_out_reader, &m_err_reader})
      if (reader->joinable()) reader->join();
  }

 private:
  struct State;
  // Reads the pipe itself (never through the stream's buffer, which nothing else reads) until the
  // end of the stream or `state.stop`, checked between waits of at most 50 ms.
  static void drain(State& state, bp::pipe& pipe, std::string& buffer, bool& eof) {
    char chunk[4096];
    while (!state.stop.load()) {
      if (wait_readable(pipe.native_source(), std::chrono::milliseconds(50)) == PipeState::idle) continue;
      bp::pipe::int_type got = 0;
      try {
        got = pipe.read(chunk, static_cast<bp::pipe::int_type>(sizeof chunk));
      } catch (const std::exception&) {
        got = 0;  // a read error ends the stream like its end does
      }
      std::lock_guard lock(state.mutex);
      if (got <= 0) {
        eof = true;
        state.cv.notify_all();
        return;
      }
      buffer.append(chunk, static_cast<std::size_t>(got));
      state.cv.notify_all();
    }
  }

  // What the reader threads share with this object (both are joined before it goes).
  struct State {
    std::atomic<bool> stop{false};
    bp::ipstream out, err;
    std::mutex mutex;
    std::condition_variable cv;
    std::string out_buffer, err_buffer;
    bool out_eof = false, err_eof = false;
  };
  std::shared_ptr<State> m_state = std::make_shared<State>();
  bp::child m_child;
  bp::opstream m_in;
  bp::ipstream& m_out = m_state->out;
  bp::ipstream& m_err = m_state->err;
  std::thread m_out_reader, m_err_reader;
  std::mutex& m_mutex = m_state->mutex;
  std::mutex m_write_mutex;
  std::condition_variable& m_cv = m_state->cv;
  std::string& m_out_buffer = m_state->out_buffer;
  std::string& m_err_buffer = m_state->err_buffer;
  bool& m_out_eof = m_state->out_eof;
  bool& m_err_eof = m_state->err_eof;
  bool m_input_closed = false;
  bool m_finished = false;
};

}  // namespace

Result<std::unique_ptr<ChildChannel>> SystemChildLauncher::start(const std::vector<std::string>& argv,
                                                                 const std::map<std::string, std::string>& env) {
  if (argv.empty()) return make_error(ErrorCode::internal, "no program to start");
  auto program = resolve_program(argv[0]);
  if (!program) return tl::unexpected(program.error());
  auto channel = std::make_unique<SystemChildChannel>();
  try {
    spdlog::debug("starting: {}", describe_command(argv));
    channel->launch(argv, *program, env);
  } catch (const std::exception& e) {
    return make_error(ErrorCode::process, "could not start " + argv[0], e.what());
  }
  return std::unique_ptr<ChildChannel>(std::move(channel));
}

}  // namespace tfwsl::agent_client
