#pragma once
// The stdio adapter: after the handshake, framed requests on a file descriptor (stdin), answers on
// another (stdout), through the same router as HTTP. The fallback when WSL's localhost forwarding
// is broken. See docs/agent-api.md "Stdio framing".

#include <string>

#include "common/core/error.hpp"
#include "linux/agent/router.hpp"

namespace tfwsl::agent {

// Reads one line (the token) from fd without reading past its '\n'; at most max_bytes.
Result<std::string> read_line_from_fd(int fd, std::size_t max_bytes);

// Answers frames until EOF (ok), `stop_fd` readable (ok; -1: none), or a broken frame (an error:
// the stream cannot be resynchronised).
Status serve_stdio_frames(const Router& router, int in_fd, int out_fd, int stop_fd = -1);

// One frame's payload -> the answer's payload. Exposed for the fuzz target and the tests.
std::string answer_frame_payload(const Router& router, const std::string& payload, bool& fatal);

}  // namespace tfwsl::agent
