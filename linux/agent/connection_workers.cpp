#include "linux/agent/connection_workers.hpp"

#include <sys/socket.h>
#include <unistd.h>

namespace tfwsl::agent {

ConnectionWorkers::ConnectionWorkers(int threads, std::size_t max_queued, Serve serve)
    : m_serve(std::move(serve)), m_max_queued(max_queued) {
  for (int i = 0; i < threads; ++i) m_threads.emplace_back([this] { work(); });
}

ConnectionWorkers::~ConnectionWorkers() { stop(); }

bool ConnectionWorkers::try_submit(ReadyConnection& connection) {
  {
    std::lock_guard lock(m_mutex);
    if (m_stopping || m_queue.size() >= m_max_queued) return false;
    m_queue.push_back(std::move(connection));
    connection.fd = -1;
  }
  m_wake.notify_one();
  return true;
}

void ConnectionWorkers::stop() {
  std::deque<ReadyConnection> dropped;
  {
    std::lock_guard lock(m_mutex);
    m_stopping = true;
    dropped.swap(m_queue);
  }
  m_wake.notify_all();
  for (auto& c : dropped) {
    ::shutdown(c.fd, SHUT_RDWR);
    ::close(c.fd);
  }
  for (auto& t : m_threads)
    if (t.joinable()) t.join();
}

void ConnectionWorkers::work() {
  for (;;) {
    ReadyConnection next;
    {
      std::unique_lock lock(m_mutex);
      m_wake.wait(lock, [this] { return m_stopping || !m_queue.empty(); });
      if (m_stopping) return;
      next = std::move(m_queue.front());
      m_queue.pop_front();
    }
    try {
      m_serve(next);  // closes the socket on every path, exceptions included
    } catch (...) {
      // A worker outlives one bad connection; the handlers' own errors became JSON answers already.
    }
  }
}

}  // namespace tfwsl::agent
