#include <pthread.h>

#include <cerrno>
#include <csignal>
#include <ctime>

#include "win/agent_client/broken_pipe.hpp"

namespace tfwsl::agent_client {
namespace {

// Blocks SIGPIPE on this thread for its lifetime; drops a SIGPIPE raised meanwhile.
class BlockedSigpipe {
 public:
  BlockedSigpipe() {
    sigemptyset(&m_pipe_only);
    sigaddset(&m_pipe_only, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &m_pipe_only, &m_old);
    sigset_t pending;
    sigpending(&pending);
    m_was_pending = sigismember(&pending, SIGPIPE) == 1;
  }
  ~BlockedSigpipe() {
    sigset_t pending;
    sigpending(&pending);
    if (!m_was_pending && sigismember(&pending, SIGPIPE) == 1) {
      const timespec no_wait{0, 0};
      while (sigtimedwait(&m_pipe_only, nullptr, &no_wait) == -1 && errno == EINTR) {
      }
    }
    pthread_sigmask(SIG_SETMASK, &m_old, nullptr);
  }
  BlockedSigpipe(const BlockedSigpipe&) = delete;
  BlockedSigpipe& operator=(const BlockedSigpipe&) = delete;

 private:
  sigset_t m_pipe_only{};
  sigset_t m_old{};
  bool m_was_pending = false;
};

}  // namespace

void without_sigpipe(const std::function<void()>& write) {
  BlockedSigpipe blocked;
  write();
}

}  // namespace tfwsl::agent_client
