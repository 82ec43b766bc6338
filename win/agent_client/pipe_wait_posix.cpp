#include <poll.h>

#include <cerrno>

#include "win/agent_client/pipe_wait.hpp"

namespace tfwsl::agent_client {

// POLLHUP and POLLERR count as readable: read(2) then returns 0 or the error, which ends the reader.
PipeState wait_readable(boost::process::pipe::native_handle_type source, std::chrono::milliseconds limit) {
  pollfd p{source, POLLIN, 0};
  int n = 0;
  do {
    n = ::poll(&p, 1, static_cast<int>(limit.count()));
  } while (n < 0 && errno == EINTR);
  return n == 0 ? PipeState::idle : PipeState::readable;
}

}  // namespace tfwsl::agent_client
