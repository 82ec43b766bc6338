#include "common/cli/fitted_output.hpp"

#include <ios>
#include <ostream>
#include <streambuf>
#include <string>
#include <utility>

namespace tfwsl {

// No guessing at commands in prose (starts_command): a table's "wsl" or a message's "tfwsl-agent at
// PATH" is no command. A command stays whole when the text quotes it (`wsl --shutdown`) or names it
// as printed for its shell (PrintedCommand), which then continues between its arguments.
WrapStyle console_text_style(const Console& console, std::vector<PrintedCommand> commands) {
  WrapStyle style;
  style.width = console.columns;
  style.commands = std::move(commands);
  return style;
}

// Holds each line until it ends, then writes it fitted to the stream's own buffer, which it stands
// in for while it lives.
class FittedOutput::Buffer : public std::streambuf {
 public:
  Buffer(std::ostream& stream, WrapStyle style) : m_stream(stream), m_style(std::move(style)) {
    m_restore = stream.rdbuf();
    m_target = m_restore;
    if (auto* outer = dynamic_cast<Buffer*>(m_restore)) {  // fitted already: write past it, never twice
      outer->pubsync();
      m_target = outer->m_target;
      m_style.commands.insert(m_style.commands.end(), outer->m_style.commands.begin(), outer->m_style.commands.end());
    }
    stream.rdbuf(this);
    // std::cerr flushes after every <<, which would write each line before it ends, unfitted: only
    // a deliberate flush (a prompt, a status line) writes a line early.
    m_unitbuf = (stream.flags() & std::ios::unitbuf) != 0;
    stream.unsetf(std::ios::unitbuf);
  }
  ~Buffer() override {
    if (!m_line.empty()) write(m_line.substr(m_sent));
    m_target->pubsync();
    m_stream.rdbuf(m_restore);
    if (m_unitbuf) m_stream.setf(std::ios::unitbuf);
  }
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;

 protected:
  int_type overflow(int_type c) override {
    if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
    put(traits_type::to_char_type(c));
    return c;
  }
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    for (std::streamsize i = 0; i < n; ++i) put(s[i]);
    return n;
  }
  // A prompt or a status line shows before its line ends: what is held goes out as it is.
  int sync() override {
    write(m_line.substr(m_sent));
    m_sent = m_line.size();
    return m_target->pubsync();
  }

 private:
  void put(char c) {
    m_line += c;
    if (c != '\n' && c != '\r') return;
    // A line partly written already is written on as it is, unless what went out takes no columns
    // (a status line's erase sequence): then the rest is a line of its own.
    const bool fit = c == '\n' && display_width(std::string_view(m_line).substr(0, m_sent)) == 0;
    write(fit ? fit_to_width(m_line.substr(m_sent), m_style) : m_line.substr(m_sent));
    m_line.clear();
    m_sent = 0;
  }
  void write(const std::string& text) {
    if (!text.empty()) m_target->sputn(text.data(), static_cast<std::streamsize>(text.size()));
  }

  std::ostream& m_stream;
  WrapStyle m_style;
  std::streambuf* m_restore = nullptr;  // what the stream wrote to before
  std::streambuf* m_target = nullptr;   // where fitted lines go: never another Buffer
  std::string m_line;                   // the line so far
  std::size_t m_sent = 0;               // its bytes already written (flushed before it ended)
  bool m_unitbuf = false;               // the stream flushed after every output before
};

FittedOutput::FittedOutput(Console& console, bool out_is_text, std::vector<PrintedCommand> commands) {
  if (out_is_text) m_out = std::make_unique<Buffer>(console.out, console_text_style(console, commands));
  m_err = std::make_unique<Buffer>(console.err, console_text_style(console, std::move(commands)));
}

FittedOutput::~FittedOutput() = default;

void print_text(Console& console, std::string_view text, std::vector<PrintedCommand> commands) {
  const FittedOutput fitted(console, true, std::move(commands));
  console.out << text;
}

}  // namespace tfwsl
