#include "common/push/progress_text.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace tfwsl::push {

std::string format_size(std::uint64_t bytes) {
  static constexpr const char* k_units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double value = static_cast<double>(bytes);
  int unit = 0;
  while (value >= 1024 && unit < 4) {
    value /= 1024;
    ++unit;
  }
  if (unit == 0) return fmt::format("{} B", bytes);
  return fmt::format("{:.1f} {}", value, k_units[unit]);
}

std::string format_clock(double seconds) {
  auto total = static_cast<long long>(std::llround(std::max(0.0, seconds)));
  long long h = total / 3600, m = (total / 60) % 60, s = total % 60;
  if (h > 0) return fmt::format("{}:{:02}:{:02}", h, m, s);
  return fmt::format("{}:{:02}", m, s);
}

std::string progress_text(const JobProgress& p) {
  if (p.phase.empty() || p.phase == "starting") return "starting";
  if (p.phase == "scanning") return fmt::format("scanning: {} files, {} so far", p.files_total, format_size(p.bytes_total));
  std::string line = fmt::format("{} {}/{} files, {}/{}", p.phase, p.files_done, p.files_total, format_size(p.bytes_done),
                                 format_size(p.bytes_total));
  if (p.bytes_per_second > 0) line += fmt::format(", {}/s", format_size(static_cast<std::uint64_t>(p.bytes_per_second)));
  if (p.eta_seconds) line += ", ETA " + format_clock(*p.eta_seconds);
  if (p.files_skipped > 0) line += fmt::format(", {} already there", p.files_skipped);
  if (p.problems > 0) line += fmt::format(", {} problem(s)", p.problems);
  return line;
}

}  // namespace tfwsl::push
