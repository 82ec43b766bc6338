#include "win/push/progress_text.hpp"

#include <fmt/format.h>

#include "common/util/byte_size_text.hpp"
#include "common/util/clock_text.hpp"

namespace tfwsl::push {

std::string progress_text(const JobProgress& p) {
  if (p.phase.empty() || p.phase == "starting") return "starting";
  if (p.phase == "scanning") return fmt::format("scanning: {} files, {} so far", p.files_total, format_bytes(p.bytes_total));
  std::string line = fmt::format("{} {}/{} files, {}/{}", p.phase, p.files_done, p.files_total, format_bytes(p.bytes_done),
                                 format_bytes(p.bytes_total));
  if (p.bytes_per_second > 0) line += fmt::format(", {}/s", format_bytes(static_cast<std::uint64_t>(p.bytes_per_second)));
  if (p.files_skipped > 0) line += fmt::format(", {} already there", p.files_skipped);
  if (p.problems > 0) line += fmt::format(", {} problem{}", p.problems, p.problems == 1 ? "" : "s");
  // Last: a status line too long for the terminal is shortened in its middle, and its end stays.
  if (p.eta_seconds) line += ", ETA " + format_clock(*p.eta_seconds);
  return line;
}

}  // namespace tfwsl::push
