#pragma once
// The HTTP server's accept loop and its waiting room. Every accepted connection waits here, on one
// poll() thread, until its whole request (head and, when it has one, body) has arrived; only then
// does a worker see it. A connection that does not get there in time is closed: the head has a
// total deadline from the accept, the body one from the end of the head, whatever the client
// trickles. Past the cap on waiting connections the oldest is dropped. So clients without a token
// that connect and dawdle cannot hold the workers an authenticated request needs.

#include <chrono>
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "common/agent_api/api_error.hpp"
#include "linux/agent/connection_workers.hpp"
#include "linux/agent/request_head.hpp"

namespace tfwsl::agent {

struct GateLimits {
  std::chrono::milliseconds head_deadline{3000};  // accept -> the blank line that ends the head
  std::chrono::milliseconds body_deadline{5000};  // end of the head -> the last body byte
  std::size_t max_pending = 64;                   // connections waiting here at once
  std::size_t max_head = 16 * 1024;               // request line and headers together
  std::size_t max_body = 64 * 1024;
};

class ConnectionGate {
 public:
  using Clock = std::chrono::steady_clock;
  // Takes a connection whose request has arrived; false when no worker can (the gate answers 503).
  using Dispatch = std::function<bool(ReadyConnection&)>;

  // `listen_fd` is non-blocking and stays the caller's; `stop_fd` (an eventfd) ends run() when readable.
  ConnectionGate(int listen_fd, int stop_fd, GateLimits limits, Dispatch dispatch);
  ~ConnectionGate();  // closes the connections still waiting
  ConnectionGate(const ConnectionGate&) = delete;
  ConnectionGate& operator=(const ConnectionGate&) = delete;

  void run();

 private:
  struct Pending {
    int fd = -1;
    std::string bytes;
    RequestHeadScanner scanner;
    Clock::time_point deadline;
  };

  void accept_new(Clock::time_point now);
  void read_from(Pending& p, Clock::time_point now);
  void expire(Clock::time_point now);
  void refuse(Pending& p, agent_api::ApiError error, const std::string& message);
  void drop(Pending& p);
  int poll_timeout_ms(Clock::time_point now) const;

  int m_listen_fd;
  int m_stop_fd;
  GateLimits m_limits;
  Dispatch m_dispatch;
  std::vector<Pending> m_pending;  // in accept order: the front is the oldest
};

}  // namespace tfwsl::agent
