#include "common/process/pipe_collector.hpp"

#include <boost/asio/buffer.hpp>
#include <boost/system/error_code.hpp>
#include <cstddef>

namespace tfwsl {

void PipeCollector::start() { read_more(); }

void PipeCollector::read_more() {
  m_pipe.async_read_some(boost::asio::buffer(m_buffer), [this](const boost::system::error_code& error, std::size_t n) {
    m_text.append(m_buffer.data(), n);
    if (m_sink && n > 0) m_sink(std::string_view(m_buffer.data(), n));
    if (error) {
      m_ended = true;  // end of file, or the pipe is gone: nothing more will come
      return;
    }
    read_more();
  });
}

}  // namespace tfwsl
