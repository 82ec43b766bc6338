#pragma once
// Writing into a pipe whose reader has gone (a child that already exited) raises SIGPIPE on POSIX,
// and SIGPIPE ends the process unless it is handled. For the bridge that must be an error value
// (EPIPE, "could not write to the agent"), not the end of tfwsl: `write` runs with SIGPIPE blocked on
// the calling thread, and a SIGPIPE it raised is taken off that thread before the mask is restored
// (SIGPIPE from write(2) is sent to the writing thread: pthread_sigmask(3), sigtimedwait(2)). Other
// threads and any handler the program set keep working. On Windows a broken pipe is only an error.

#include <functional>

namespace tfwsl::agent_client {

void without_sigpipe(const std::function<void()>& write);

}  // namespace tfwsl::agent_client
