#pragma once
// The httplib::Stream a worker hands to cpp-httplib's request parser: first the bytes the gate
// already read off the socket, then the socket itself, every read bounded by one deadline for the
// whole request, and every write by one deadline for the whole answer (from its first byte): not a
// timeout per call, which a client trickling (or reading) a byte at a time never hits.

#include <httplib.h>

#include <chrono>
#include <optional>
#include <string>

namespace tfwsl::agent {

class BufferedSocketStream final : public httplib::Stream {
 public:
  using Clock = std::chrono::steady_clock;
  BufferedSocketStream(int fd, std::string buffered, Clock::time_point read_deadline,
                       std::chrono::milliseconds write_timeout);

  bool is_readable() const override;
  bool is_writable() const override;
  ssize_t read(char* ptr, size_t size) override;
  ssize_t write(const char* ptr, size_t size) override;
  void get_remote_ip_and_port(std::string& ip, int& port) const override;
  void get_local_ip_and_port(std::string& ip, int& port) const override;
  socket_t socket() const override { return m_fd; }

 private:
  bool wait_for(short events, int timeout_ms) const;
  static int ms_until(Clock::time_point deadline);
  Clock::time_point write_deadline() const;

  int m_fd;
  std::string m_buffered;
  std::size_t m_offset = 0;
  Clock::time_point m_read_deadline;
  std::chrono::milliseconds m_write_timeout;
  mutable std::optional<Clock::time_point> m_write_deadline;  // set by the first write
};

}  // namespace tfwsl::agent
