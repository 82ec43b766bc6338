#include "win/agent_client/broken_pipe.hpp"

namespace tfwsl::agent_client {

// Windows has no SIGPIPE: a write into a closed pipe fails with ERROR_NO_DATA / ERROR_BROKEN_PIPE.
void without_sigpipe(const std::function<void()>& write) { write(); }

}  // namespace tfwsl::agent_client
