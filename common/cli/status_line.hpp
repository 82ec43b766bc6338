#pragma once
// "tfwsl doctor: waiting for wsl.exe (12 s)" on stderr while a command waits on something slow.
// On a terminal the line is rewritten in place (\r + erase in line) a few times a second and
// erased at the end; otherwise a plain line is written every few seconds, so that a log shows the
// wait without a flood. The command feeds it the current step; a thread it owns writes the line
// and is joined by stop() (or the destructor). The clock is a port: tests drive tick() by hand.

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <ostream>
#include <string>
#include <thread>

#include "common/core/clock.hpp"

namespace tfwsl {

struct StatusLineSettings {
  bool live = false;  // rewrite in place (a terminal)
  std::chrono::milliseconds live_period{std::chrono::milliseconds(250)};
  std::chrono::milliseconds plain_period{std::chrono::seconds(5)};  // a plain line at most this often
  std::size_t columns = 80;  // the terminal's width: a live line keeps within it, its middle shortened
};

class StatusLine {
 public:
  StatusLine(std::ostream& err, std::string prefix, const Clock& clock, StatusLineSettings settings);
  ~StatusLine();
  StatusLine(const StatusLine&) = delete;
  StatusLine& operator=(const StatusLine&) = delete;

  // The step now waited on ("waiting for wsl.exe"); its time starts now, and a live line shows
  // it at once. Any thread.
  void set_step(std::string step);
  // New words for the same step (a progress count): its time and the plain lines' rhythm go on, so a
  // log gets a line every plain_period however often the words change. Any thread.
  void update_step(std::string step);
  // Starts the thread that calls tick() every live_period (also when not live: tick decides).
  void start();
  // Joins the thread; a live line is erased, so what follows starts on a clean line.
  void stop();
  // Writes what is due at the clock's now: the live line, or a plain line once plain_period has
  // passed since the step started or since the last plain line.
  void tick();

  // "tfwsl doctor: waiting for wsl.exe (12 s)".
  static std::string text(const std::string& prefix, const std::string& step,
                          std::chrono::steady_clock::duration waited);

 private:
  void run();
  void write_live_line();  // with m_mutex held

  std::ostream& m_err;
  const std::string m_prefix;
  const Clock& m_clock;
  const StatusLineSettings m_settings;
  std::mutex m_mutex;
  std::condition_variable m_wake;
  std::string m_step;
  std::chrono::steady_clock::time_point m_step_started{};
  std::chrono::steady_clock::time_point m_last_plain{};
  bool m_shown = false;  // a live line is on the screen
  bool m_stopping = false;
  std::thread m_thread;
};

}  // namespace tfwsl
