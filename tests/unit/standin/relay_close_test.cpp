// The wsl.exe stand-in's relay (tests/wsl_standin/relay_posix.hpp) ends a connection gracefully:
// a close() with bytes unread sends a reset, and under Wine the stand-in then lost the command's
// output and exit code (windows.migrate.apply: "the distro's user has no home folder ($HOME)").
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cerrno>
#include <chrono>
#include <string>
#include <thread>

#include "tests/wsl_standin/relay_posix.hpp"
#include "tests/wsl_standin/relay_protocol.hpp"

namespace {

using tfwsl::standin::decode_le32;
using tfwsl::standin::encode_relay_frame;

int connect_to(int port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<std::uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  REQUIRE(::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
  return fd;
}

void send_text(int fd, const std::string& bytes) {
  REQUIRE(::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(bytes.size()));
}

// Reads frames up to the exit frame; its stdout text.
std::string read_to_exit_frame(int fd) {
  std::string in, out;
  char chunk[4096];
  for (;;) {
    while (in.size() >= 5 && in.size() >= 5 + decode_le32(in.data() + 1)) {
      const std::uint32_t n = decode_le32(in.data() + 1);
      if (in[0] == tfwsl::standin::k_frame_exit) return out;
      if (in[0] == tfwsl::standin::k_frame_stdout) out += in.substr(5, n);
      in.erase(0, 5 + n);
    }
    const ssize_t n = ::recv(fd, chunk, sizeof chunk, 0);
    REQUIRE(n > 0);
    in.append(chunk, static_cast<std::size_t>(n));
  }
}

}  // namespace

TEST_CASE("the relay ends a connection with the end of the stream, never a reset, when the stand-in sends late") {
  tfwsl::standin::Relay relay({});
  const int fd = connect_to(relay.port());
  // A command that closes its output at once and ends a little later: the relay stops reading the
  // connection when the output ends, so the stand-in's last stdin frame, sent now, stays unread.
  send_text(fd, R"({"argv":["sh","-c","printf home; exec >&- 2>&-; sleep 0.3"],"distro":"","user":"","cd":""})"
                "\n");
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  send_text(fd, encode_relay_frame(tfwsl::standin::k_frame_stdin, ""));
  CHECK(read_to_exit_frame(fd) == "home");
  char byte = 0;
  errno = 0;
  const ssize_t after = ::recv(fd, &byte, 1, 0);
  INFO("recv after the exit frame: " << after << ", errno " << errno);
  CHECK(after == 0);  // before: -1, ECONNRESET
  ::close(fd);
}
