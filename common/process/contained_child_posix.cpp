#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>

#include "common/process/contained_child.hpp"

namespace tfwsl {
namespace {

extern "C" void kill_own_group(int) { ::kill(0, SIGKILL); }

// The guardian keeps nothing open: the program's pipes close when the program (and what it
// started) closes them, and a pipe that reports exec's failure sees only the program's end.
void close_every_file() {
#ifdef SYS_close_range
  if (::syscall(SYS_close_range, 0U, ~0U, 0U) == 0) return;
#endif
  for (int fd = 0; fd < 4096; ++fd) ::close(fd);
}

[[noreturn]] void guard(pid_t program) {
  close_every_file();
  int status = 0;
  while (::waitpid(program, &status, 0) < 0) {
    if (errno != EINTR) ::_exit(127);
  }
  if (WIFEXITED(status)) ::_exit(WEXITSTATUS(status));
  const int signal = WTERMSIG(status);
  ::prctl(PR_SET_DUMPABLE, 0);  // no core of the guardian for the program's SIGSEGV
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  ::sigaction(signal, &dfl, nullptr);
  sigset_t only;
  sigemptyset(&only);
  ::sigprocmask(SIG_SETMASK, &only, nullptr);
  ::kill(::getpid(), signal);  // passed on as the guardian's own end
  ::_exit(128 + signal);
}

}  // namespace

pid_t contain_child(pid_t parent, ParentDeath on_parent_death) {
  ::setpgid(0, 0);
  sigset_t none;
  sigemptyset(&none);
  if (on_parent_death == ParentDeath::kill_group) {
    struct sigaction sa {};
    sa.sa_handler = kill_own_group;
    sigemptyset(&sa.sa_mask);
    ::sigaction(SIGTERM, &sa, nullptr);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);  // the agent's threads may block SIGTERM (stop_watcher)
    ::prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (::getppid() != parent) ::kill(0, SIGKILL);  // the parent died before the line above
  }
  const pid_t guardian = ::getpid();
  const pid_t program = ::fork();
  if (program < 0) return 0;  // no guardian: the program still runs in its own group
  if (program > 0) guard(program);
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  ::sigaction(SIGTERM, &dfl, nullptr);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
  die_with(guardian);
  return guardian;
}

void die_with(pid_t parent) {
  if (parent <= 0) return;
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != parent) ::_exit(127);
}

bool has_ended(pid_t child) {
  siginfo_t info{};
  while (::waitid(P_PID, static_cast<id_t>(child), &info, WEXITED | WNOHANG | WNOWAIT) != 0) {
    if (errno != EINTR) return true;  // not our child (any more): nothing to wait for
  }
  return info.si_pid == child;
}

void kill_group(pid_t leader) {
  if (leader > 0) ::kill(-leader, SIGKILL);
}

}  // namespace tfwsl
