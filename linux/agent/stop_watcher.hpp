#pragma once
// What ends `tfwsl-agent serve`, watched on one thread: SIGINT or SIGTERM (through a signalfd, so
// the signals must be blocked in every thread before any starts), or request(). A stop before
// anyone waits is not lost: stopped_fd() stays readable from then on.
//
// In stdio mode it also watches stdin for its writer going away (POLLHUP): the frame loop learns
// of EOF only when its current frame is answered, and a frame can be waiting for a probe run of
// minutes, so on hang-up `on_hangup` releases such waits at once (the loop then reads the EOF).

#include <atomic>
#include <functional>
#include <string>
#include <thread>

namespace tfwsl::agent {

class StopWatcher {
 public:
  // `on_stop` runs once, on the watcher's thread, at a signal or request(). `stdin_fd` < 0: not watched.
  StopWatcher(int stdin_fd, std::function<void()> on_hangup, std::function<void()> on_stop);
  ~StopWatcher();  // request() and join
  StopWatcher(const StopWatcher&) = delete;
  StopWatcher& operator=(const StopWatcher&) = delete;

  void request();
  int stopped_fd() const { return m_stopped; }           // readable once stopping
  int signal_number() const { return m_signal.load(); }  // the signal that stopped it, 0 if none

 private:
  void watch();

  int m_stdin;
  std::function<void()> m_on_hangup;
  std::function<void()> m_on_stop;
  int m_signal_fd = -1;
  int m_stopped = -1;
  std::atomic<int> m_signal{0};
  std::thread m_thread;
};

// Blocks SIGINT and SIGTERM in the calling thread (and so in every thread it starts after).
void block_stop_signals();

}  // namespace tfwsl::agent
