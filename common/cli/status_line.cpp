#include "common/cli/status_line.hpp"

#include <algorithm>

#include "common/core/terminal_style.hpp"
#include "common/util/text_wrap.hpp"
#include "common/util/visible_text.hpp"

namespace tfwsl {

StatusLine::StatusLine(std::ostream& err, std::string prefix, const Clock& clock, StatusLineSettings settings)
    : m_err(err), m_prefix(std::move(prefix)), m_clock(clock), m_settings(settings) {}

StatusLine::~StatusLine() { stop(); }

void StatusLine::set_step(std::string step) {
  std::lock_guard lock(m_mutex);
  m_step = visible_text(step);  // words from a step's output (pip, apt, the agent): shown visibly
  m_step_started = m_clock.now();
  m_last_plain = m_step_started;
  if (m_settings.live && !m_stopping) write_live_line();  // the new step shows at once, not a tick later
}

// New words show at once on a live line (a poll brings them at most a few times a second), so a
// step shorter than one tick is still seen, as set_step's are; unchanged words wait for the tick.
void StatusLine::update_step(std::string step) {
  std::lock_guard lock(m_mutex);
  if (m_step.empty()) {
    m_step_started = m_clock.now();
    m_last_plain = m_step_started;
  }
  step = visible_text(step);
  const bool changed = step != m_step;
  m_step = std::move(step);
  if (changed && m_settings.live && !m_stopping) write_live_line();
}

void StatusLine::write_live_line() {
  std::string line = text(m_prefix, m_step, m_clock.now() - m_step_started);
  // A line that wraps cannot be rewritten with \r: keep it within the terminal, one column spare
  // (a cursor in the last column wraps on some consoles), by dropping whole fields of its middle (a
  // progress count is never cut in two): its end says the ETA and the time waited.
  line = shorten_fields(line, std::max<std::size_t>(m_settings.columns, 20) - 1, ", ");
  m_err << terminal_style::k_rewrite_line << line << std::flush;
  m_shown = true;
}

void StatusLine::start() {
  std::lock_guard lock(m_mutex);
  if (m_thread.joinable() || m_stopping) return;
  m_thread = std::thread([this] { run(); });
}

void StatusLine::stop() {
  {
    std::lock_guard lock(m_mutex);
    m_stopping = true;
  }
  m_wake.notify_all();
  if (m_thread.joinable()) m_thread.join();
  std::lock_guard lock(m_mutex);
  if (m_shown) m_err << terminal_style::k_rewrite_line << std::flush;
  m_shown = false;
}

void StatusLine::run() {
  std::unique_lock lock(m_mutex);
  while (!m_stopping) {
    lock.unlock();
    tick();
    lock.lock();
    m_wake.wait_for(lock, m_settings.live_period, [this] { return m_stopping; });
  }
}

void StatusLine::tick() {
  std::lock_guard lock(m_mutex);
  if (m_step.empty()) return;
  const auto now = m_clock.now();
  if (m_settings.live) {
    write_live_line();
  } else if (now - m_last_plain >= m_settings.plain_period) {
    m_err << text(m_prefix, m_step, now - m_step_started) << '\n' << std::flush;
    m_last_plain = now;
  }
}

std::string StatusLine::text(const std::string& prefix, const std::string& step,
                             std::chrono::steady_clock::duration waited) {
  const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(waited).count();
  return prefix + ": " + step + " (" + std::to_string(seconds) + " s)";
}

}  // namespace tfwsl
