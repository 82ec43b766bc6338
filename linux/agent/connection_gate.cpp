#include "linux/agent/connection_gate.hpp"

#include <httplib.h>
#include <poll.h>
#include <spdlog/spdlog.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <thread>

namespace tfwsl::agent {

namespace {

// The gate's own answers, in the API's error shape. Best effort: one non-blocking send, since a
// client that does not read is not worth a thread.
void send_error_and_close(int fd, agent_api::ApiError error, const std::string& message) {
  auto status = agent_api::http_status(error);
  auto body = agent_api::error_body(error, message).dump();
  auto response = "HTTP/1.1 " + std::to_string(status) + " " + httplib::status_message(status) +
                  "\r\nContent-Type: application/json\r\nContent-Length: " + std::to_string(body.size()) +
                  (error == agent_api::ApiError::busy ? "\r\nRetry-After: 1" : "") + "\r\nConnection: close\r\n\r\n" +
                  body;
  (void)!::send(fd, response.data(), response.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
  ::shutdown(fd, SHUT_RDWR);
  ::close(fd);
}

bool gate_fd_readable(short revents) { return (revents & (POLLIN | POLLHUP | POLLERR)) != 0; }

}  // namespace

ConnectionGate::ConnectionGate(int listen_fd, int stop_fd, GateLimits limits, Dispatch dispatch)
    : m_listen_fd(listen_fd), m_stop_fd(stop_fd), m_limits(limits), m_dispatch(std::move(dispatch)) {}

ConnectionGate::~ConnectionGate() {
  for (auto& p : m_pending) drop(p);
}

void ConnectionGate::run() {
  std::vector<pollfd> fds;
  for (;;) {
    fds.assign({{m_stop_fd, POLLIN, 0}, {m_listen_fd, POLLIN, 0}});
    for (const auto& p : m_pending) fds.push_back({p.fd, POLLIN, 0});
    int n = ::poll(fds.data(), fds.size(), poll_timeout_ms(Clock::now()));
    if (n < 0 && errno != EINTR) {
      spdlog::error("the HTTP accept loop stopped: poll failed ({})", errno);
      return;
    }
    if (n > 0 && gate_fd_readable(fds[0].revents)) return;
    auto now = Clock::now();
    // fds[i + 2] is m_pending[i]: accept_new below only appends (or drops the oldest after this loop).
    for (std::size_t i = 0; n > 0 && i < m_pending.size(); ++i)
      if (gate_fd_readable(fds[i + 2].revents)) read_from(m_pending[i], now);
    expire(now);
    m_pending.erase(std::remove_if(m_pending.begin(), m_pending.end(), [](const Pending& p) { return p.fd < 0; }),
                    m_pending.end());
    if (n > 0 && gate_fd_readable(fds[1].revents)) accept_new(now);
  }
}

int ConnectionGate::poll_timeout_ms(Clock::time_point now) const {
  if (m_pending.empty()) return -1;
  auto first = std::min_element(m_pending.begin(), m_pending.end(),
                                [](const Pending& a, const Pending& b) { return a.deadline < b.deadline; });
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(first->deadline - now).count() + 1;
  return static_cast<int>(std::clamp<long long>(ms, 0, 60 * 1000));
}

void ConnectionGate::accept_new(Clock::time_point now) {
  for (int i = 0; i < 64; ++i) {  // a burst at a time, so the waiting ones are read between bursts
    int fd = ::accept4(m_listen_fd, nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK);
    if (fd < 0) {
      if (errno == EINTR || errno == ECONNABORTED) continue;
      if ((errno == EMFILE || errno == ENFILE) && !m_pending.empty()) {
        spdlog::warn("out of file descriptors: dropping the oldest waiting connection");
        drop(m_pending.front());
        m_pending.erase(m_pending.begin());
        continue;
      }
      if (errno == EMFILE || errno == ENFILE) std::this_thread::sleep_for(std::chrono::milliseconds(10));
      return;  // EAGAIN: none left; anything else: try again on the next wake-up
    }
    if (m_pending.size() >= m_limits.max_pending) {
      spdlog::debug("{} connections waiting for their request: dropping the oldest", m_pending.size());
      drop(m_pending.front());
      m_pending.erase(m_pending.begin());
    }
    m_pending.push_back(
        {fd, {}, RequestHeadScanner(m_limits.max_head, m_limits.max_body), now + m_limits.head_deadline});
  }
}

void ConnectionGate::read_from(Pending& p, Clock::time_point now) {
  char buf[16384];
  for (;;) {
    bool head_done = p.scanner.state() == HeadState::complete;
    std::size_t target = head_done ? p.scanner.head_size() + p.scanner.body_size() : m_limits.max_head;
    auto want = std::min(sizeof buf, target > p.bytes.size() ? target - p.bytes.size() : std::size_t{1});
    auto n = ::recv(p.fd, buf, want, MSG_DONTWAIT);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return;
    if (n <= 0) return drop(p);  // the client closed (or reset) before its request was whole
    p.bytes.append(buf, static_cast<std::size_t>(n));
    if (!head_done) {
      auto state = p.scanner.scan(p.bytes);
      if (state == HeadState::malformed) return refuse(p, agent_api::ApiError::bad_request, p.scanner.problem());
      if (state == HeadState::too_large) return refuse(p, agent_api::ApiError::headers_too_large, p.scanner.problem());
      if (state != HeadState::complete) continue;
      p.deadline = now + m_limits.body_deadline;
    }
    if (p.bytes.size() < p.scanner.head_size() + p.scanner.body_size()) continue;
    ReadyConnection ready{p.fd, std::move(p.bytes), p.deadline};
    if (!m_dispatch(ready)) return refuse(p, agent_api::ApiError::busy, "every worker is busy: retry in a moment");
    p.fd = -1;  // a worker owns it now
    return;
  }
}

void ConnectionGate::expire(Clock::time_point now) {
  for (auto& p : m_pending) {
    if (p.fd < 0 || now < p.deadline) continue;
    if (p.bytes.empty()) {
      drop(p);  // connected and said nothing: just closed
    } else {
      bool head_done = p.scanner.state() == HeadState::complete;
      auto limit = head_done ? m_limits.body_deadline : m_limits.head_deadline;
      refuse(p, agent_api::ApiError::request_timeout,
             std::string(head_done ? "the body" : "the request head") + " did not arrive within " +
                 std::to_string(limit.count()) + " ms");
    }
  }
}

void ConnectionGate::refuse(Pending& p, agent_api::ApiError error, const std::string& message) {
  spdlog::debug("closing a connection before its request reached a worker: {}", message);
  send_error_and_close(p.fd, error, message);
  p.fd = -1;
}

void ConnectionGate::drop(Pending& p) {
  if (p.fd < 0) return;
  ::close(p.fd);
  p.fd = -1;
}

}  // namespace tfwsl::agent
