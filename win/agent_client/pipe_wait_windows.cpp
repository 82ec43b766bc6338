#include <windows.h>

#include <algorithm>

#include "win/agent_client/pipe_wait.hpp"

namespace tfwsl::agent_client {

// Anonymous pipes have no overlapped reads and no wait on readability: PeekNamedPipe (which takes
// anonymous pipes too) says how much is there, or fails once the writer has gone (ERROR_BROKEN_PIPE),
// when ReadFile returns the end of the stream at once. Between peeks sleeps of 1 ms, doubling up
// to 8 ms: an answer that follows a request closely is picked up at once, an idle pipe costs little.
PipeState wait_readable(boost::process::pipe::native_handle_type source, std::chrono::milliseconds limit) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  long long pause_ms = 1;
  for (;;) {
    DWORD available = 0;
    if (!PeekNamedPipe(source, nullptr, 0, nullptr, &available, nullptr) || available > 0) return PipeState::readable;
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return PipeState::idle;
    Sleep(static_cast<DWORD>(std::min<long long>(left.count(), pause_ms)));
    pause_ms = std::min<long long>(pause_ms * 2, 8);
  }
}

}  // namespace tfwsl::agent_client
