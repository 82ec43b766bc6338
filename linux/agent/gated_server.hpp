#pragma once
// cpp-httplib's Server with our own accept loop in place of listen_after_bind(): connections wait
// in the ConnectionGate until their request has arrived, then one of a fixed set of workers
// (ConnectionWorkers) runs the library's request parser and handlers on it (Server's protected
// process_request, over a BufferedSocketStream), one request per connection.
//
// Stopping is an eventfd: request_stop() before serve() has started is remembered, so serve() then
// returns at once (httplib's own stop() is a no-op until the server is marked running).

#include <httplib.h>

#include <chrono>

#include "linux/agent/connection_gate.hpp"

namespace tfwsl::agent {

struct WorkerLimits {
  int threads = 8;
  std::size_t max_queued = 64;  // complete requests waiting for a worker; past it: 503 busy
  std::chrono::milliseconds write_timeout{5000};
};

class GatedServer final : public httplib::Server {
 public:
  GatedServer(GateLimits gate, WorkerLimits workers);
  ~GatedServer() override;

  // After bind_to_port()/bind_to_any_port(): serves until request_stop(), then closes the listening
  // socket and the waiting connections, drops queued ones, and joins the workers (each finishes
  // the request it is on). Call once, from one thread.
  void serve();
  // Any thread, any time (before serve() too), more than once.
  void request_stop();

 private:
  void serve_connection(ReadyConnection& connection);

  GateLimits m_gate;
  WorkerLimits m_workers;
  int m_stop_event = -1;
};

}  // namespace tfwsl::agent
