#pragma once
// The bounded worker pool of the HTTP server: a fixed number of threads and a fixed-size queue of
// connections whose request has fully arrived. Full means full: the gate answers 503 at once
// rather than let a burst pile up behind slow handlers.

#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace tfwsl::agent {

// A connection handed from the gate to a worker: the socket, everything read from it so far (the
// whole head, and the body when its length was known), and when its body must have arrived.
struct ReadyConnection {
  int fd = -1;
  std::string bytes;
  std::chrono::steady_clock::time_point body_deadline;
};

class ConnectionWorkers {
 public:
  using Serve = std::function<void(ReadyConnection&)>;  // answers and closes the connection
  ConnectionWorkers(int threads, std::size_t max_queued, Serve serve);
  ~ConnectionWorkers();  // stop()
  ConnectionWorkers(const ConnectionWorkers&) = delete;
  ConnectionWorkers& operator=(const ConnectionWorkers&) = delete;

  // False (and `connection` untouched) when every worker is busy and the queue is full.
  bool try_submit(ReadyConnection& connection);
  // Closes the connections still queued, lets each worker finish the one it is serving, joins.
  void stop();

 private:
  void work();

  Serve m_serve;
  std::size_t m_max_queued;
  std::mutex m_mutex;
  std::condition_variable m_wake;
  std::deque<ReadyConnection> m_queue;
  bool m_stopping = false;
  std::vector<std::thread> m_threads;
};

}  // namespace tfwsl::agent
