#pragma once
// Waiting for a pipe's read end to have something to read, with a time limit, so that a reader
// thread never blocks where nobody can stop it: the child channel's readers wait in slices and
// look at their stop flag between them, and are always joined (a reader left blocked in a read past
// the end of main met the static destructors under Wine: a page fault as tfwsl.exe exited).
// pipe_wait_posix.cpp polls the descriptor; pipe_wait_windows.cpp peeks the anonymous pipe.

#include <boost/process/pipe.hpp>
#include <chrono>

namespace tfwsl::agent_client {

enum class PipeState {
  readable,  // a read returns at once: bytes, or the end of the stream (the writer has gone)
  idle,      // nothing yet within the time limit
};

PipeState wait_readable(boost::process::pipe::native_handle_type source, std::chrono::milliseconds limit);

}  // namespace tfwsl::agent_client
