#pragma once
// Ctrl-C (and SIGTERM, or the console closing on Windows) while a push runs: caught instead of
// ending the process, so that the push cancels its job through the agent's API, waits for it to
// stop cleanly and exits 130. Only while a catcher lives; the previous handling comes back after.
// POSIX: sigaction (interrupt_catcher_posix.cpp); Windows: SetConsoleCtrlHandler
// (interrupt_catcher_windows.cpp). One at a time per process.

namespace tfwsl::push {

class InterruptCatcher {
 public:
  InterruptCatcher();
  ~InterruptCatcher();
  InterruptCatcher(const InterruptCatcher&) = delete;
  InterruptCatcher& operator=(const InterruptCatcher&) = delete;

  bool requested() const;
};

}  // namespace tfwsl::push
