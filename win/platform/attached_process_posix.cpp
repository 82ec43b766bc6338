#include <fmt/format.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "win/platform/attached_process.hpp"

extern char** environ;

namespace tfwsl::cli {
namespace {

// SIGINT and SIGQUIT ignored here while the child runs; the old actions back on every path.
class IgnoredTerminalSignals {
 public:
  IgnoredTerminalSignals() {
    struct sigaction ignore {};
    ignore.sa_handler = SIG_IGN;
    sigemptyset(&ignore.sa_mask);
    ::sigaction(SIGINT, &ignore, &m_int);
    ::sigaction(SIGQUIT, &ignore, &m_quit);
  }
  ~IgnoredTerminalSignals() {
    ::sigaction(SIGINT, &m_int, nullptr);
    ::sigaction(SIGQUIT, &m_quit, nullptr);
  }
  IgnoredTerminalSignals(const IgnoredTerminalSignals&) = delete;
  IgnoredTerminalSignals& operator=(const IgnoredTerminalSignals&) = delete;

 private:
  struct sigaction m_int {};
  struct sigaction m_quit {};
};

std::vector<std::string> environment_with(const std::map<std::string, std::string>& extra) {
  std::vector<std::string> out;
  for (char** e = environ; *e; ++e) {
    const std::string kv = *e;
    const auto eq = kv.find('=');
    if (eq != std::string::npos && extra.contains(kv.substr(0, eq))) continue;
    out.push_back(kv);
  }
  for (const auto& [key, value] : extra) out.push_back(key + "=" + value);
  return out;
}

}  // namespace

Result<int> SystemAttachedRunner::run(const AttachedRequest& request) {
  if (request.argv.empty()) return make_error(ErrorCode::process, "no program to run");
  std::vector<std::string> env = environment_with(request.env);
  std::vector<char*> envp, argv;
  for (auto& kv : env) envp.push_back(kv.data());
  envp.push_back(nullptr);
  std::vector<std::string> args = request.argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  if (request.working_directory) posix_spawn_file_actions_addchdir_np(&actions, request.working_directory->c_str());
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  sigset_t defaults;  // the child gets the terminal's signals back, whatever this process does with them
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGINT);
  sigaddset(&defaults, SIGQUIT);
  sigaddset(&defaults, SIGPIPE);
  posix_spawnattr_setsigdefault(&attributes, &defaults);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGDEF);

  IgnoredTerminalSignals ignored;
  pid_t pid = 0;
  const int rc = ::posix_spawnp(&pid, argv[0], &actions, &attributes, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  if (rc == ENOENT) return make_error(ErrorCode::not_found, fmt::format("{}: not found", request.argv[0]));
  if (rc != 0)
    return make_error(ErrorCode::process, fmt::format("{} cannot be started: {}", request.argv[0], std::strerror(rc)));
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0)
    if (errno != EINTR)
      return make_error(ErrorCode::process, fmt::format("waiting for {}: {}", request.argv[0], std::strerror(errno)));
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

}  // namespace tfwsl::cli
