#include "linux/agent/gated_server.hpp"

#include <fcntl.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <stdexcept>

#include "linux/agent/buffered_socket_stream.hpp"

namespace tfwsl::agent {

GatedServer::GatedServer(GateLimits gate, WorkerLimits workers) : m_gate(gate), m_workers(workers) {
  m_stop_event = ::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  if (m_stop_event < 0) throw std::runtime_error("eventfd failed: cannot build the HTTP server's stop signal");
}

GatedServer::~GatedServer() {
  auto listening = svr_sock_.exchange(INVALID_SOCKET);
  if (listening != INVALID_SOCKET) ::close(listening);
  ::close(m_stop_event);
}

void GatedServer::request_stop() {
  std::uint64_t one = 1;
  (void)!::write(m_stop_event, &one, sizeof one);  // a counter: never blocks short of 2^64 - 2 stops
}

void GatedServer::serve() {
  int listening = svr_sock_;
  if (listening == INVALID_SOCKET) return;
  ::fcntl(listening, F_SETFL, ::fcntl(listening, F_GETFL) | O_NONBLOCK);
  {
    ConnectionWorkers workers(m_workers.threads, m_workers.max_queued,
                              [this](ReadyConnection& c) { serve_connection(c); });
    {
      ConnectionGate gate(listening, m_stop_event, m_gate,
                          [&workers](ReadyConnection& c) { return workers.try_submit(c); });
      gate.run();
    }  // the waiting connections are closed here
    workers.stop();
  }
  listening = svr_sock_.exchange(INVALID_SOCKET);
  if (listening != INVALID_SOCKET) ::close(listening);
}

void GatedServer::serve_connection(ReadyConnection& c) {
  struct Closer {
    int fd;
    ~Closer() {
      ::shutdown(fd, SHUT_RDWR);
      ::close(fd);
    }
  } closer{c.fd};
  BufferedSocketStream stream(c.fd, std::move(c.bytes), c.body_deadline, m_workers.write_timeout);
  std::string remote_addr, local_addr;
  int remote_port = 0, local_port = 0;
  stream.get_remote_ip_and_port(remote_addr, remote_port);
  stream.get_local_ip_and_port(local_addr, local_port);
  bool closed = false;
  process_request(stream, remote_addr, remote_port, local_addr, local_port, /*close_connection=*/true, closed, nullptr);
}

}  // namespace tfwsl::agent
