#include "win/push/progress_text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <string>

#include "common/util/byte_size_text.hpp"
#include "common/util/clock_text.hpp"

namespace tfwsl::push {
namespace {

// "115.0/230.0 MiB" when both sizes take the same unit, else "512 B/46.9 MiB".
std::string bytes_of(std::uint64_t done, std::uint64_t total) {
  const std::string d = format_bytes(done), t = format_bytes(total);
  const std::size_t d_space = d.rfind(' '), t_space = t.rfind(' ');
  if (d.substr(d_space) == t.substr(t_space)) return d.substr(0, d_space) + "/" + t;
  return d + "/" + t;
}

unsigned percent_of(std::uint64_t done, std::uint64_t total) {
  return static_cast<unsigned>(std::min(100.0, static_cast<double>(done) * 100.0 / static_cast<double>(total)));
}

// Of the bytes (the time goes with them), else of the files; rounded down, so 100% means done.
unsigned percent_done(const JobProgress& p) {
  if (p.bytes_total > 0) return percent_of(p.bytes_done, p.bytes_total);
  if (p.files_total > 0) return percent_of(p.files_done, p.files_total);
  return 0;
}

}  // namespace

std::string progress_text(const JobProgress& p) {
  if (p.phase == agent_api::ImportPhase::starting) return "starting";
  if (p.phase == agent_api::ImportPhase::scanning)
    return fmt::format("scanning: {} files, {} so far", p.files_total, format_bytes(p.bytes_total));
  // The percentage and the count first: a status line too narrow drops the fields after them.
  std::string line = fmt::format("{} {}%: {}/{} files, {}", to_string(p.phase), percent_done(p), p.files_done,
                                 p.files_total, bytes_of(p.bytes_done, p.bytes_total));
  if (p.bytes_per_second > 0)
    line += fmt::format(", {}/s", format_bytes(static_cast<std::uint64_t>(p.bytes_per_second)));
  if (p.files_skipped > 0) line += fmt::format(", {} already there", p.files_skipped);
  if (p.problems > 0) line += fmt::format(", {} problem{}", p.problems, p.problems == 1 ? "" : "s");
  // Last: a status line too long for the terminal is shortened in its middle, and its end stays.
  if (p.eta_seconds) line += ", ETA " + format_clock(*p.eta_seconds);
  return line;
}

}  // namespace tfwsl::push
