#include "common/provision/progress_event.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "common/util/byte_size_text.hpp"

namespace tfwsl::provision {
namespace {

nlohmann::json bytes_json(const std::optional<std::uint64_t>& bytes) {
  return bytes ? nlohmann::json(*bytes) : nlohmann::json(nullptr);
}

std::optional<std::uint64_t> bytes_from(const nlohmann::json& j, const char* key) {
  if (!j.contains(key) || !j[key].is_number_unsigned()) return std::nullopt;
  return j[key].get<std::uint64_t>();
}

}  // namespace

nlohmann::json progress_json(const ProgressEvent& e) {
  return {{"progress",
           {{"step", e.step},
            {"phase", e.phase},
            {"item", e.item},
            {"done", bytes_json(e.done)},
            {"total", bytes_json(e.total)}}}};
}

std::optional<ProgressEvent> progress_from_line(std::string_view line) {
  if (line.empty() || line.front() != '{') return std::nullopt;
  const auto j = nlohmann::json::parse(line, nullptr, false);
  if (j.is_discarded() || !j.is_object() || !j.contains("progress") || !j["progress"].is_object()) return std::nullopt;
  const auto& p = j["progress"];
  ProgressEvent e;
  e.step = p.value("step", "");
  e.phase = p.value("phase", "");
  e.item = p.value("item", "");
  e.done = bytes_from(p, "done");
  e.total = bytes_from(p, "total");
  if (e.step.empty() || e.phase.empty()) return std::nullopt;
  return e;
}

std::string progress_words(const ProgressEvent& e) {
  std::string words = e.step + ": " + e.phase;
  if (!e.item.empty()) words += " " + e.item;
  if (e.done && e.total && *e.total > 0) {
    const auto percent = static_cast<unsigned>(std::min<std::uint64_t>(100, *e.done * 100 / *e.total));
    words += fmt::format(", {} of {} ({}%)", format_bytes(*e.done), format_bytes(*e.total), percent);
  } else if (e.done) {
    words += ", " + format_bytes(*e.done) + " so far";
  } else if (e.total) {
    words += ", " + format_bytes(*e.total) + " to download";
  }
  return words;
}

}  // namespace tfwsl::provision
