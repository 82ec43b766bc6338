#include <fcntl.h>
#include <fmt/format.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <ctime>
#include <deque>
#include <fstream>
#include <thread>

#include "common/process/contained_child.hpp"
#include "common/process/process_runner.hpp"
#include "common/util/ascii.hpp"
#include "linux/venv/logged_process.hpp"

extern char** environ;

namespace tfwsl::venv {
namespace {

volatile std::sig_atomic_t g_stop_signal = 0;
extern "C" void on_stop(int signal) { g_stop_signal = signal; }

// SIGINT and SIGTERM only set a flag while the child runs; the old handlers come back after.
class StopSignals {
 public:
  StopSignals() {
    g_stop_signal = 0;
    struct sigaction sa {};
    sa.sa_handler = on_stop;
    sigemptyset(&sa.sa_mask);
    ::sigaction(SIGINT, &sa, &m_old_int);
    ::sigaction(SIGTERM, &sa, &m_old_term);
  }
  ~StopSignals() {
    ::sigaction(SIGINT, &m_old_int, nullptr);
    ::sigaction(SIGTERM, &m_old_term, nullptr);
  }
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;

 private:
  struct sigaction m_old_int {
  }, m_old_term{};
};

std::string utc_stamp() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  ::gmtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y%m%dT%H%M%SZ", &tm);
  return buf;
}

Status make_private_dirs(const std::filesystem::path& dir) {
  std::error_code ec;
  if (std::filesystem::is_directory(dir, ec)) return {};
  std::filesystem::create_directories(dir, ec);
  if (ec) return make_error(ErrorCode::io, fmt::format("cannot create {}: {}", dir.string(), ec.message()));
  ::chmod(dir.c_str(), 0700);
  return {};
}

// In the child between fork and exec: only async-signal-safe calls. contain_child: the child leads
// a group of its own and dies with the agent, and everything it started with it.
[[noreturn]] void exec_child(pid_t agent, int log_fd, char* const* argv) {
  contain_child(agent, ParentDeath::kill_group);
  const int null_fd = ::open("/dev/null", O_RDONLY);
  if (null_fd >= 0) ::dup2(null_fd, 0);
  ::dup2(log_fd, 1);
  ::dup2(log_fd, 2);
  ::execve(argv[0], argv, environ);
  const char msg[] = "could not start the program\n";
  (void)!::write(2, msg, sizeof msg - 1);
  ::_exit(127);
}

LoggedRun wait_for(pid_t pid, std::chrono::seconds timeout) {
  LoggedRun run;
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!has_ended(pid)) {
    const bool late = std::chrono::steady_clock::now() >= deadline;
    if (late || g_stop_signal != 0) {
      run.timed_out = late;
      run.interrupted = !late && g_stop_signal != 0;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  kill_group(pid);  // on every path: pip and whatever it started (builds, compilers) and left running
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return run;
}

}  // namespace

Result<std::filesystem::path> create_log_file(const std::filesystem::path& dir, const std::string& prefix) {
  if (auto made = make_private_dirs(dir); !made) return tl::unexpected(made.error());
  const std::string stamp = utc_stamp();
  for (int n = 1; n < 1000; ++n) {
    const auto path =
        dir / (n == 1 ? fmt::format("{}-{}.log", prefix, stamp) : fmt::format("{}-{}-{}.log", prefix, stamp, n));
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd >= 0) {
      ::close(fd);
      return path;
    }
    if (errno != EEXIST)
      return make_error(ErrorCode::io, fmt::format("cannot create {}: {}", path.string(), std::strerror(errno)));
  }
  return make_error(ErrorCode::io, fmt::format("cannot find a free log file name in {}", dir.string()));
}

Result<LoggedRun> run_logged(const std::vector<std::string>& argv, const std::filesystem::path& log,
                             std::chrono::seconds timeout) {
  if (argv.empty()) return make_error(ErrorCode::internal, "an empty command");
  if (::access(argv[0].c_str(), X_OK) != 0)
    return make_error(ErrorCode::process, fmt::format("cannot run {}: {}", argv[0], std::strerror(errno)));
  {
    std::ofstream header(log, std::ios::app | std::ios::binary);
    header << "$ " << describe_command(argv) << "\n";
  }
  const int log_fd = ::open(log.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
  if (log_fd < 0)
    return make_error(ErrorCode::io, fmt::format("cannot write {}: {}", log.string(), std::strerror(errno)));
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  StopSignals signals;
  const pid_t agent = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(log_fd);
    return make_error(ErrorCode::process, "fork failed", std::strerror(errno));
  }
  if (pid == 0) exec_child(agent, log_fd, args.data());
  ::setpgid(pid, pid);  // also here: no race with a kill before the child's own setpgid
  ::close(log_fd);
  LoggedRun run = wait_for(pid, timeout);
  run.tail = last_lines_of(log, 21);  // the "$ argv" header when the child said less
  if (run.tail.size() == 21 || (!run.tail.empty() && run.tail.front().starts_with("$ ")))
    run.tail.erase(run.tail.begin());
  std::ofstream(log, std::ios::app | std::ios::binary)
      << (run.timed_out     ? fmt::format("[stopped after {} s]\n", timeout.count())
          : run.interrupted ? std::string("[stopped: the agent was interrupted]\n")
                            : fmt::format("[exit {}]\n", run.exit_code));
  return run;
}

std::vector<std::string> last_lines_of(const std::filesystem::path& file, std::size_t n) {
  std::ifstream in(file, std::ios::binary);
  std::deque<std::string> kept;
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (trim(line).empty()) continue;
    kept.push_back(line);
    if (kept.size() > n) kept.pop_front();
  }
  return {kept.begin(), kept.end()};
}

}  // namespace tfwsl::venv
