// The worker's stream over a real socket pair: the gate's bytes first, then the socket, under one
// deadline for the whole request and one for the whole answer.
#include "linux/agent/buffered_socket_stream.hpp"

#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <catch2/catch.hpp>
#include <thread>

using namespace tfwsl::agent;
using namespace std::chrono_literals;
using StreamClock = std::chrono::steady_clock;

namespace {

struct SocketPair {
  int fds[2] = {-1, -1};
  SocketPair() { REQUIRE(::socketpair(AF_UNIX, SOCK_STREAM, 0, fds) == 0); }
  ~SocketPair() {
    for (int fd : fds)
      if (fd >= 0) ::close(fd);
  }
};

}  // namespace

TEST_CASE("reads serve the buffered bytes, then the socket, until the request deadline", "[stream]") {
  SocketPair pair;
  BufferedSocketStream stream(pair.fds[0], "head", StreamClock::now() + 300ms, 1s);
  char buf[16];
  REQUIRE(stream.read(buf, 2) == 2);
  REQUIRE(stream.read(buf + 2, sizeof buf) == 2);
  CHECK(std::string(buf, 4) == "head");
  REQUIRE(::write(pair.fds[1], "body", 4) == 4);
  CHECK(stream.read(buf, sizeof buf) == 4);
  auto start = StreamClock::now();
  CHECK(stream.read(buf, sizeof buf) == -1);  // nothing more before the deadline
  CHECK(StreamClock::now() - start < 1s);
}

// It reads steadily, so each single write makes progress well within the timeout: only a deadline
// for the whole answer stops it.
TEST_CASE("a client reading slowly loses its answer at the write deadline", "[stream]") {
  SocketPair pair;
  int small = 4096;
  ::setsockopt(pair.fds[0], SOL_SOCKET, SO_SNDBUF, &small, sizeof small);
  ::setsockopt(pair.fds[1], SOL_SOCKET, SO_RCVBUF, &small, sizeof small);
  std::atomic<bool> stop{false};
  std::thread slow_reader([&] {
    char chunk[256];
    while (!stop && ::recv(pair.fds[1], chunk, sizeof chunk, MSG_DONTWAIT) != 0) std::this_thread::sleep_for(2ms);
  });
  BufferedSocketStream stream(pair.fds[0], "", StreamClock::now(), 500ms);
  std::string answer(4 << 20, 'x');
  std::size_t sent = 0;
  bool failed = false;
  auto start = StreamClock::now();
  while (sent < answer.size() && StreamClock::now() - start < 5s) {
    auto n = stream.write(answer.data() + sent, answer.size() - sent);
    if (n < 0) {
      failed = true;
      break;
    }
    sent += static_cast<std::size_t>(n);
  }
  auto took = StreamClock::now() - start;
  stop = true;
  ::shutdown(pair.fds[0], SHUT_RDWR);
  slow_reader.join();
  CHECK(failed);
  CHECK(took < 1500ms);
}
