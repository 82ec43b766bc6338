#pragma once
// Unauthenticated clients that hold connections to the agent without finishing a request: idle ones
// (connect, send nothing) and trickling ones (a request head, one byte per interval, never ended).
// Each reconnects when the agent closes it, so the pressure stays on for the whole test. Loopback
// only, a fixed number of sockets, one thread, joined by the destructor.

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

namespace tfwsl::test {

class SlowClients {
 public:
  SlowClients(int port, int idle, int trickling, std::chrono::milliseconds interval);
  ~SlowClients();
  SlowClients(const SlowClients&) = delete;
  SlowClients& operator=(const SlowClients&) = delete;

  int connected() const { return m_connected.load(); }  // sockets open right now
  int closed_by_agent() const { return m_closed.load(); }
  // Waits until the agent has closed at least `n` of them (counting from the start), at most `limit`;
  // true when it has. The event itself, not a guess at how long the agent takes.
  bool wait_closed_by_agent(int n, std::chrono::milliseconds limit);

 private:
  void run(int idle, int trickling);

  int m_port;
  std::chrono::milliseconds m_interval;
  std::string m_head;  // what a trickling client sends, byte by byte (never the blank line)
  std::atomic<bool> m_stop{false};
  std::atomic<int> m_connected{0};
  std::atomic<int> m_closed{0};
  std::mutex m_closed_mutex;
  std::condition_variable m_closed_changed;
  std::thread m_thread;
};

}  // namespace tfwsl::test
