#include <fcntl.h>
#include <fmt/format.h>
#include <grp.h>
#include <pwd.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <nlohmann/json.hpp>
#include <thread>

#include "common/process/contained_child.hpp"
#include "common/process/process_runner.hpp"
#include "common/provision/output_lines.hpp"
#include "linux/provision/as_user.hpp"
#include "linux/provision/state_folder.hpp"
#include "linux/provision/step_process.hpp"

namespace tfwsl::provision {
namespace {

// The step log and processes.jsonl lie in the state folder: opened without following a link.
void append_line(const std::filesystem::path& file, const std::string& line) { append_state_line(file, line); }

std::vector<std::string> child_environment(const StepCommand& command) {
  std::map<std::string, std::string> env = fixed_child_environment(command.as_user);
  for (const auto& [k, v] : command.env) env[k] = v;
  std::vector<std::string> out;
  for (const auto& [k, v] : env) out.push_back(k + "=" + v);
  return out;
}

// apt and dpkg are left to finish when the agent dies (a dpkg killed in a postinst needs repair);
// everything else (venv, pip, as the user) dies with the agent, and what it started with it.
ParentDeath on_agent_death(const StepCommand& command) {
  const bool apt = !command.argv.empty() && (command.argv[0] == "apt-get" || command.argv[0] == "dpkg");
  return apt ? ParentDeath::keep : ParentDeath::kill_group;
}

// In the child between fork and exec: only async-signal-safe calls, everything prepared before.
[[noreturn]] void exec_child(const StepCommand& command, pid_t agent, int log_fd, const std::vector<gid_t>& groups,
                             char* const* argv, char* const* envp) {
  const pid_t guardian = contain_child(agent, on_agent_death(command));
  const int null_fd = ::open("/dev/null", O_RDONLY);
  if (null_fd >= 0) ::dup2(null_fd, 0);
  ::dup2(log_fd, 1);
  ::dup2(log_fd, 2);
  if (command.as_user && ::geteuid() == 0) {
    if (::setgroups(groups.size(), groups.data()) != 0 || ::setgid(command.as_user->gid) != 0 ||
        ::setuid(command.as_user->uid) != 0)
      ::_exit(126);
    die_with(guardian);  // the uid change cleared PR_SET_PDEATHSIG
    if (::chdir(command.as_user->home.c_str()) != 0) (void)::chdir("/");
  } else {
    (void)::chdir("/");
  }
  ::execvpe(argv[0], argv, envp);
  ::_exit(127);
}

// The step log read from where the command's output starts, while it runs: its new lines go to
// the command's on_output (the log stays the child's stdout, so nothing is lost when no one reads).
class LogFollower {
 public:
  LogFollower(const std::filesystem::path& log, std::function<void(std::string_view)> sink) : m_sink(std::move(sink)) {
    if (!m_sink) return;
    m_fd = open_state_file(log, O_RDONLY);
    if (m_fd >= 0) ::lseek(m_fd, 0, SEEK_END);
  }
  ~LogFollower() {
    if (m_fd >= 0) ::close(m_fd);
  }
  LogFollower(const LogFollower&) = delete;
  LogFollower& operator=(const LogFollower&) = delete;

  void poll() {
    if (m_fd < 0) return;
    char buffer[65536];
    ssize_t n = 0;
    while ((n = ::read(m_fd, buffer, sizeof buffer)) > 0)
      for (const auto& line : m_lines.feed(std::string_view(buffer, static_cast<std::size_t>(n)))) m_sink(line);
  }
  void finish() {
    poll();
    if (m_fd >= 0)
      for (const auto& line : m_lines.finish()) m_sink(line);
  }

 private:
  std::function<void(std::string_view)> m_sink;
  int m_fd = -1;
  OutputLines m_lines;
};

Result<int> wait_child(pid_t pid, std::chrono::milliseconds timeout, ParentDeath mode, LogFollower& follower) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  bool late = false;
  while (!has_ended(pid)) {
    if ((late = std::chrono::steady_clock::now() >= deadline)) break;
    follower.poll();
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  // The group on a timeout; and after the command's own exit, what a user's command left running.
  if (late || mode == ParentDeath::kill_group) kill_group(pid);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return make_error(ErrorCode::process, "waitpid failed", std::strerror(errno));
  }
  if (late) return make_error(ErrorCode::timeout, fmt::format("stopped after {} s", timeout.count() / 1000));
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  return 128 + WTERMSIG(status);
}

}  // namespace

std::map<std::string, std::string> fixed_child_environment(const DistroUser* user) {
  std::map<std::string, std::string> env = {{"PATH", "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"},
                                            {"LANG", "C.UTF-8"}};
  if (user) {
    env["HOME"] = user->home;
    env["USER"] = env["LOGNAME"] = user->name;
  } else {
    env["HOME"] = "/root";
  }
  return env;
}

Result<DistroUser> find_distro_user(const std::string& name) {
  errno = 0;
  const passwd* pw = ::getpwnam(name.c_str());
  if (!pw)
    return make_error(ErrorCode::not_found, fmt::format("the distro has no user '{}'", name),
                      "create it, or pass --user");
  return DistroUser{pw->pw_name, pw->pw_uid, pw->pw_gid, pw->pw_dir};
}

Result<int> run_step_command(const StepCommand& command, const StepLogs& logs) {
  if (command.argv.empty()) return make_error(ErrorCode::internal, "an empty command");
  // Not root: only our own user's commands can run (as ourselves); another user's need root.
  if (command.as_user && ::geteuid() != 0 && command.as_user->uid != ::geteuid())
    return make_error(ErrorCode::permission,
                      fmt::format("running {} as {} needs root", command.argv[0], command.as_user->name));
  append_line(logs.step_log,
              "$ " + describe_command(command.argv) + (command.as_user ? " (as " + command.as_user->name + ")" : ""));
  LogFollower follower(logs.step_log, command.on_output);  // from here: the command's own output
  const int log_fd = open_state_file(logs.step_log, O_WRONLY | O_APPEND | O_CREAT);
  if (log_fd < 0)
    return make_error(ErrorCode::io, fmt::format("cannot write {}", logs.step_log.string()), std::strerror(errno));
  const std::vector<gid_t> groups = command.as_user ? supplementary_groups(*command.as_user) : std::vector<gid_t>{};
  std::vector<std::string> env = child_environment(command);
  std::vector<char*> argv, envp;
  for (const auto& a : command.argv) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  for (const auto& e : env) envp.push_back(const_cast<char*>(e.c_str()));
  envp.push_back(nullptr);
  const pid_t agent = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(log_fd);
    return make_error(ErrorCode::process, "fork failed", std::strerror(errno));
  }
  if (pid == 0) exec_child(command, agent, log_fd, groups, argv.data(), envp.data());
  ::setpgid(pid, pid);  // also here: a timeout at once still finds the group
  ::close(log_fd);
  append_line(logs.process_log, nlohmann::json{{"step", command.step},
                                               {"pid", pid},
                                               {"argv", command.argv},
                                               {"as", command.as_user ? command.as_user->name : "root"}}
                                    .dump());
  auto code = wait_child(pid, command.timeout, on_agent_death(command), follower);
  follower.finish();
  if (code) append_line(logs.step_log, fmt::format("[exit {}]", *code));
  return code;
}

}  // namespace tfwsl::provision
