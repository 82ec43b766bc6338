#include "linux/agent/stop_watcher.hpp"

#include <poll.h>
#include <signal.h>
#include <spdlog/spdlog.h>
#include <sys/eventfd.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <stdexcept>

namespace tfwsl::agent {

namespace {

sigset_t stop_signal_set() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  return set;
}

}  // namespace

void block_stop_signals() {
  auto set = stop_signal_set();
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
}

StopWatcher::StopWatcher(int stdin_fd, std::function<void()> on_hangup, std::function<void()> on_stop)
    : m_stdin(stdin_fd), m_on_hangup(std::move(on_hangup)), m_on_stop(std::move(on_stop)) {
  auto set = stop_signal_set();
  m_signal_fd = ::signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
  m_stopped = ::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  if (m_signal_fd < 0 || m_stopped < 0) throw std::runtime_error("signalfd/eventfd failed: cannot watch for a stop");
  m_thread = std::thread([this] { watch(); });
}

StopWatcher::~StopWatcher() {
  request();
  m_thread.join();
  ::close(m_signal_fd);
  ::close(m_stopped);
}

void StopWatcher::request() {
  std::uint64_t one = 1;
  (void)!::write(m_stopped, &one, sizeof one);
}

void StopWatcher::watch() {
  bool watch_stdin = m_stdin >= 0;
  for (;;) {
    pollfd fds[3] = {{m_stopped, POLLIN, 0}, {m_signal_fd, POLLIN, 0}, {watch_stdin ? m_stdin : -1, POLLRDHUP, 0}};
    if (::poll(fds, 3, -1) < 0) {
      if (errno == EINTR) continue;
      spdlog::error("the stop watcher's poll failed ({}): stopping", errno);
      break;
    }
    if (fds[0].revents & POLLIN) break;
    if (fds[1].revents & POLLIN) {
      signalfd_siginfo info{};
      if (::read(m_signal_fd, &info, sizeof info) == static_cast<ssize_t>(sizeof info))
        m_signal = static_cast<int>(info.ssi_signo);
      spdlog::info("signal {}: stopping", m_signal.load());
      request();
      break;
    }
    if (fds[2].revents & (POLLHUP | POLLRDHUP | POLLERR | POLLNVAL)) {
      watch_stdin = false;  // reported again on every poll from now on
      spdlog::debug("stdin's writer went away: releasing requests that wait for probes");
      if (m_on_hangup) m_on_hangup();
    }
  }
  if (m_on_stop) m_on_stop();
}

}  // namespace tfwsl::agent
