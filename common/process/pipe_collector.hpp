#pragma once
// What a child writes to one of its pipes, kept as it arrives. Boost.Process v1's
// `std_out > std::future<std::string>` delivers the text only at end of file, so a child whose
// pipe stays open after it exits (a grandchild holding it, or Wine's conhost, which inherits the
// child's handles and ends a little later) lost *everything* it wrote once the runner stopped
// waiting. Here each read is appended at once: stopping early loses only what was never read.

#include <array>
#include <boost/asio/io_context.hpp>
#include <boost/process/async_pipe.hpp>
#include <functional>
#include <string>
#include <string_view>

namespace tfwsl {

class PipeCollector {
 public:
  explicit PipeCollector(boost::asio::io_context& ios) : m_pipe(ios) {}
  PipeCollector(const PipeCollector&) = delete;
  PipeCollector& operator=(const PipeCollector&) = delete;

  // The pipe to hand the child (`bp::std_out > collector.pipe()`).
  boost::process::async_pipe& pipe() { return m_pipe; }
  // Also hands each piece read to `sink` as it arrives (before start()).
  void forward_to(std::function<void(std::string_view)> sink) { m_sink = std::move(sink); }
  // Arms the reads; call once the child has started (its end of the pipe is closed here then).
  void start();
  // True once the pipe reached its end (every writer closed it) or failed.
  bool ended() const { return m_ended; }
  // What was read so far; the collector is empty afterwards.
  std::string take() { return std::move(m_text); }

 private:
  void read_more();

  boost::process::async_pipe m_pipe;
  std::array<char, 65536> m_buffer{};
  std::string m_text;
  std::function<void(std::string_view)> m_sink;
  bool m_ended = false;
};

}  // namespace tfwsl
