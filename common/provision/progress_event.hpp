#pragma once
// What a provision run is doing now, as the agent reports it while it runs: the step, its phase
// (checking, applying, downloading, installing), the package or wheel, and bytes done / in all
// where apt or pip give them. The agent writes one JSON line per event on stderr
// (`tfwsl-agent provision --json --progress-json`); tfwsl reads them as they come and shows them in
// its status line.

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

namespace tfwsl::provision {

struct ProgressEvent {
  std::string step;                    // "cuda.toolkit"
  std::string phase;                   // "checking", "applying", "downloading", "installing"
  std::string item;                    // "libcublas-12-2", "tensorflow-2.15.1"; may be empty
  std::optional<std::uint64_t> done;   // bytes downloaded so far by the step's command
  std::optional<std::uint64_t> total;  // bytes it downloads in all, when known

  bool operator==(const ProgressEvent&) const = default;
};

// {"progress": {"step": ..., "phase": ..., "item": ..., "done": N|null, "total": N|null}}
nlohmann::json progress_json(const ProgressEvent& event);
// One line of the agent's stderr: the event it carries, or nullopt for any other line.
std::optional<ProgressEvent> progress_from_line(std::string_view line);
// "cuda.toolkit: downloading libcublas-12-2, 1.2 GiB of 2.8 GiB (43%)".
std::string progress_words(const ProgressEvent& event);

}  // namespace tfwsl::provision
