#include "linux/agent/buffered_socket_stream.hpp"

#include <poll.h>
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace tfwsl::agent {

BufferedSocketStream::BufferedSocketStream(int fd, std::string buffered, Clock::time_point read_deadline,
                                           std::chrono::milliseconds write_timeout)
    : m_fd(fd), m_buffered(std::move(buffered)), m_read_deadline(read_deadline), m_write_timeout(write_timeout) {}

int BufferedSocketStream::ms_until(Clock::time_point deadline) {
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
  return static_cast<int>(std::clamp<long long>(left, 0, 60 * 60 * 1000));
}

BufferedSocketStream::Clock::time_point BufferedSocketStream::write_deadline() const {
  if (!m_write_deadline) m_write_deadline = Clock::now() + m_write_timeout;
  return *m_write_deadline;
}

bool BufferedSocketStream::wait_for(short events, int timeout_ms) const {
  pollfd p{m_fd, events, 0};
  for (;;) {
    int n = ::poll(&p, 1, timeout_ms);
    if (n < 0 && errno == EINTR) continue;  // the deadline is re-read by the caller's next call
    return n > 0 && (p.revents & (events | POLLHUP | POLLERR)) != 0;
  }
}

bool BufferedSocketStream::is_readable() const {
  return m_offset < m_buffered.size() || wait_for(POLLIN, ms_until(m_read_deadline));
}

bool BufferedSocketStream::is_writable() const { return wait_for(POLLOUT, ms_until(write_deadline())); }

ssize_t BufferedSocketStream::read(char* ptr, size_t size) {
  if (m_offset < m_buffered.size()) {
    auto n = std::min(size, m_buffered.size() - m_offset);
    std::memcpy(ptr, m_buffered.data() + m_offset, n);
    m_offset += n;
    return static_cast<ssize_t>(n);
  }
  // Past the deadline, or nothing before it: the request is over (cpp-httplib answers 400 or stops).
  if (!wait_for(POLLIN, ms_until(m_read_deadline))) return -1;
  for (;;) {
    auto n = ::recv(m_fd, ptr, size, MSG_DONTWAIT);
    if (n < 0 && errno == EINTR) continue;
    return n;
  }
}

ssize_t BufferedSocketStream::write(const char* ptr, size_t size) {
  for (;;) {
    // A client that does not read, or reads a byte at a time, loses its answer at the deadline.
    if (!wait_for(POLLOUT, ms_until(write_deadline()))) return -1;
    auto n = ::send(m_fd, ptr, size, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (n < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK)) continue;
    return n;
  }
}

void BufferedSocketStream::get_remote_ip_and_port(std::string& ip, int& port) const {
  httplib::detail::get_remote_ip_and_port(m_fd, ip, port);
}

void BufferedSocketStream::get_local_ip_and_port(std::string& ip, int& port) const {
  httplib::detail::get_local_ip_and_port(m_fd, ip, port);
}

}  // namespace tfwsl::agent
