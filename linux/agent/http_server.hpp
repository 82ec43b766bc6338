#pragma once
// The HTTP adapter: cpp-httplib bound to loopback only, with every request passing admission
// (admission.hpp) in the pre-routing handler, before the library reads any body.

#include <memory>
#include <string>

#include "common/core/error.hpp"
#include "linux/agent/admission.hpp"
#include "linux/agent/router.hpp"

namespace httplib {
class Server;
}

namespace tfwsl::agent {

struct ServerLimits {
  int threads = 8;
  int read_timeout_s = 5;   // a request's line, headers and body must arrive within this
  int write_timeout_s = 5;
  int idle_timeout_s = 5;   // a connection with no request is closed after this
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
  void stop();

 private:
  const Router& m_router;
  AdmissionPolicy m_policy;
  std::unique_ptr<httplib::Server> m_server;
};

}  // namespace tfwsl::agent
