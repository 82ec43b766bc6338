#include "linux/dataset/progress.hpp"

#include <fmt/format.h>

#include <cmath>

#include "common/util/byte_size_text.hpp"
#include "common/util/clock_text.hpp"

namespace tfwsl::dataset {

std::string render_progress_line(const ProgressSnapshot& s) {
  std::string line =
      fmt::format("{} {}/{} files, {}/{}", to_string(s.phase), s.files_done, s.files_total,
                  format_bytes(static_cast<double>(s.bytes_done)), format_bytes(static_cast<double>(s.bytes_total)));
  if (s.bytes_per_second > 0) line += fmt::format(", {}/s", format_bytes(s.bytes_per_second));
  if (s.eta_seconds) line += fmt::format(", ETA {}", format_clock(*s.eta_seconds));
  if (s.problems > 0) line += fmt::format(", {} problem(s)", s.problems);
  if (!s.current_file.empty() && s.phase == ImportPhase::copying) line += ", now: " + s.current_file;
  return line;
}

ProgressTracker::ProgressTracker(const Clock& clock) : m_clock(clock), m_started(clock.now()) {}

void ProgressTracker::set_phase(ImportPhase phase) {
  m_phase = static_cast<int>(phase);
  if (phase == ImportPhase::copying) {
    std::lock_guard lock(m_mutex);
    if (!m_copy_started) m_copy_started = m_clock.now();
  }
}

void ProgressTracker::add_found(std::uint64_t files, std::uint64_t bytes) {
  m_files_total += files;
  m_bytes_total += bytes;
}

void ProgressTracker::add_copied_bytes(std::uint64_t bytes) {
  m_bytes_copied += bytes;
  m_bytes_done += bytes;
}

void ProgressTracker::file_copied(std::uint64_t remaining_bytes) {
  add_copied_bytes(remaining_bytes);
  ++m_files_copied;
  ++m_files_done;
}

void ProgressTracker::file_skipped(std::uint64_t bytes) {
  m_bytes_done += bytes;
  ++m_files_skipped;
  ++m_files_done;
}

void ProgressTracker::file_failed(std::uint64_t bytes) {
  m_bytes_done += bytes;
  ++m_files_done;
}

void ProgressTracker::file_moved() { ++m_files_moved; }
void ProgressTracker::problem() { ++m_problems; }

void ProgressTracker::uncount_copied_bytes(std::uint64_t bytes) {
  m_bytes_copied -= std::min<std::uint64_t>(bytes, m_bytes_copied);
  m_bytes_done -= std::min<std::uint64_t>(bytes, m_bytes_done);
}

void ProgressTracker::set_current_file(const std::string& display_name) {
  std::lock_guard lock(m_mutex);
  m_current_file = display_name;
}

ProgressSnapshot ProgressTracker::snapshot() const {
  ProgressSnapshot s;
  s.phase = static_cast<ImportPhase>(m_phase.load());
  s.files_total = m_files_total;
  s.bytes_total = m_bytes_total;
  s.files_done = m_files_done;
  s.bytes_done = m_bytes_done;
  s.files_copied = m_files_copied;
  s.files_skipped = m_files_skipped;
  s.files_moved = m_files_moved;
  s.problems = m_problems;
  auto now = m_clock.now();
  s.elapsed_seconds = std::chrono::duration<double>(now - m_started).count();
  std::optional<std::chrono::steady_clock::time_point> copy_started;
  {
    std::lock_guard lock(m_mutex);
    copy_started = m_copy_started;
    s.current_file = m_current_file;
  }
  if (copy_started) {
    double copy_seconds = std::chrono::duration<double>(now - *copy_started).count();
    double copied = static_cast<double>(m_bytes_copied.load());
    if (copy_seconds > 0 && copied > 0) {
      s.bytes_per_second = copied / copy_seconds;
      double remaining = s.bytes_total > s.bytes_done ? static_cast<double>(s.bytes_total - s.bytes_done) : 0.0;
      if (s.phase == ImportPhase::copying) s.eta_seconds = remaining / s.bytes_per_second;
    }
  }
  if (s.phase == ImportPhase::done) s.eta_seconds = 0.0;
  return s;
}

}  // namespace tfwsl::dataset
