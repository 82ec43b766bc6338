#include "tests/integration/agent/slow_clients.hpp"

#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <vector>

#include "tests/integration/agent/agent_process.hpp"

namespace tfwsl::test {

namespace {

struct SlowConnection {
  int fd = -1;
  bool trickles = false;
  std::size_t sent = 0;
  std::chrono::steady_clock::time_point next_byte;
};

}  // namespace

SlowClients::SlowClients(int port, int idle, int trickling, std::chrono::milliseconds interval)
    : m_port(port), m_interval(interval) {
  m_head = "GET /v1/info HTTP/1.1\r\nHost: 127.0.0.1:" + std::to_string(port) + "\r\nX-Slow: " + std::string(4096, 'a');
  // Connect them all before the test goes on, so that they are there when it measures.
  m_thread = std::thread([this, idle, trickling] { run(idle, trickling); });
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (m_connected.load() < idle + trickling && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
}

SlowClients::~SlowClients() {
  m_stop = true;
  m_thread.join();
}

bool SlowClients::wait_closed_by_agent(int n, std::chrono::milliseconds limit) {
  std::unique_lock lock(m_closed_mutex);
  return m_closed_changed.wait_for(lock, limit, [&] { return m_closed.load() >= n; });
}

void SlowClients::run(int idle, int trickling) {
  std::vector<SlowConnection> connections(static_cast<std::size_t>(idle + trickling));
  for (std::size_t i = 0; i < connections.size(); ++i) connections[i].trickles = static_cast<int>(i) >= idle;
  char sink[4096];
  while (!m_stop.load()) {
    auto now = std::chrono::steady_clock::now();
    for (auto& c : connections) {
      if (c.fd < 0) {
        c.fd = connect_loopback(m_port);
        c.sent = 0;
        c.next_byte = now;
        if (c.fd >= 0) ++m_connected;
        continue;
      }
      pollfd p{c.fd, POLLIN, 0};
      if (poll(&p, 1, 0) > 0 && recv(c.fd, sink, sizeof sink, MSG_DONTWAIT) <= 0) {  // the agent closed it
        ::close(c.fd);
        c.fd = -1;
        --m_connected;
        {
          std::lock_guard lock(m_closed_mutex);
          ++m_closed;
        }
        m_closed_changed.notify_all();
        continue;
      }
      if (c.trickles && now >= c.next_byte) {
        char byte = m_head[c.sent % m_head.size()];
        if (c.sent >= m_head.size()) byte = 'a';
        if (send(c.fd, &byte, 1, MSG_NOSIGNAL | MSG_DONTWAIT) == 1) ++c.sent;
        c.next_byte = now + m_interval;
      }
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  for (auto& c : connections)
    if (c.fd >= 0) ::close(c.fd);
  m_connected = 0;
}

}  // namespace tfwsl::test
