// peak_rss: runs a command and reports the peak resident set size the kernel recorded for it, for
// the memory tests (never shipped).
//   tfwsl_peak_rss OUT_FILE COMMAND [ARG...]
// The command's stdin, stdout and stderr are this program's. OUT_FILE gets one line:
//   exit=N child_peak_kib=N launcher_hwm_kib=N
// Why a program of its own: wait4's ru_maxrss is the only peak taken at the child's exit, so a
// short run cannot escape it (a poll of /proc/PID/status can miss all of a run that ends between
// two polls). But Linux carries the forking parent's high-water mark across exec (exec_mmap keeps
// the old mm's hiwater_rss in signal->maxrss), so the figure is at least the parent's RSS at the
// fork: a Python interpreter would be measured instead of a small agent run. This launcher is a
// few hundred KiB, and reports its own high-water mark so that a caller can check the figure is
// the child's (child_peak_kib well above launcher_hwm_kib).
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {

long own_high_water_kib() {
  std::FILE* status = std::fopen("/proc/self/status", "r");
  if (!status) return -1;
  char line[256];
  long kib = -1;
  while (std::fgets(line, sizeof line, status))
    if (std::strncmp(line, "VmHWM:", 6) == 0) kib = std::strtol(line + 6, nullptr, 10);
  std::fclose(status);
  return kib;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fputs("usage: tfwsl_peak_rss OUT_FILE COMMAND [ARG...]\n", stderr);
    return 2;
  }
  const long launcher_kib = own_high_water_kib();
  const pid_t pid = ::fork();
  if (pid < 0) return std::perror("fork"), 2;
  if (pid == 0) {
    ::execvp(argv[2], argv + 2);
    std::perror(argv[2]);
    ::_exit(127);
  }
  int status = 0;
  rusage usage{};
  if (::wait4(pid, &status, 0, &usage) != pid) return std::perror("wait4"), 2;
  const int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  std::FILE* out = std::fopen(argv[1], "w");
  if (!out) return std::perror(argv[1]), 2;
  std::fprintf(out, "exit=%d child_peak_kib=%ld launcher_hwm_kib=%ld\n", code, usage.ru_maxrss, launcher_kib);
  std::fclose(out);
  return code;
}
