#pragma once
// The HTTP adapter: cpp-httplib bound to loopback only, with every request passing admission
// (admission.hpp) in the pre-routing handler, before the library reads any body. Connections are
// accepted and held by our own gate (gated_server.hpp) until their request has arrived.

#include <memory>
#include <string>

#include "common/core/error.hpp"
#include "linux/agent/admission.hpp"
#include "linux/agent/gated_server.hpp"
#include "linux/agent/router.hpp"

namespace tfwsl::agent {

struct ServerLimits {
  int threads = 8;
  std::size_t max_queued = 64;   // complete requests waiting for a worker; past it: 503 busy
  std::size_t max_pending = 64;  // connections whose request has not arrived yet; past it the oldest is closed
  int head_deadline_ms = 3000;   // the request line and headers must arrive within this of the accept
  int body_timeout_s = 5;        // the body must arrive within this of the end of the head
  int write_timeout_s = 5;       // the answer must be taken by the client within this
};

// "127.0.0.1:0", "localhost:8080", "[::1]:0" -> host to bind and port. Anything that is not a
// loopback name is refused: the agent must never listen on another interface.
struct ListenAddress {
  std::string host;  // "127.0.0.1" or "::1"
  int port = 0;
};
Result<ListenAddress> parse_listen_address(const std::string& text);

// Puts admission, the router and the JSON error shapes on a cpp-httplib server. `router` and
// `policy` are referenced, not copied (the policy's port is filled in after the bind). Used by
// HttpServer and by the fuzz target, which feeds raw bytes through the same server code.
void install_agent_handlers(httplib::Server& server, const Router& router, const AdmissionPolicy& policy);

class HttpServer {
 public:
  HttpServer(const Router& router, std::string token, ServerLimits limits);
  ~HttpServer();
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  // Binds (port 0: any free port) and returns the port.
  Result<int> bind(const ListenAddress& address);
  // Serves until stop(); call from one thread after bind().
  void run();
  // From any thread, before or during run(): run() returns (at once if it has not started) once
  // the workers have finished the requests they were serving.
  void stop();

 private:
  const Router& m_router;
  AdmissionPolicy m_policy;
  std::unique_ptr<GatedServer> m_server;
};

}  // namespace tfwsl::agent
