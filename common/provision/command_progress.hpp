#pragma once
// Progress read from what a step's command prints, line by line, with no I/O of its own (the agent
// feeds it the step log's new lines as they are written):
//   apt-get install -q: "Need to get 2900 MB of archives." (the total), "Get:N URI ... PKG ARCH VER
//     [SIZE]" as each archive starts (apt-private/acqprogress.cc; -q keeps these lines and drops
//     the live bar), "Fetched ..." once all are in, then dpkg's "Unpacking PKG (VER) ..." and
//     "Setting up PKG (VER) ...";
//   pip install: "Collecting REQ", "  Downloading FILE-OR-URL (SIZE)" as each download starts
//     (pip's network/download.py), the bar's last state off a terminal ("━━━ 701.1/701.1 kB ..."),
//     "Installing collected packages: ...". pip gives no total: the plan's known wheel sizes are.
//   podman pull/build: "Copying blob sha256:..." as each layer starts, "Copying config", "Writing
//     manifest" (containers/image off a terminal: no sizes; the plan's figure is the total).
// Sizes are read as apt and pip print them: decimal kB/MB/GB ("1,167 kB" with a locale's commas).

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/provision/progress_event.hpp"

namespace tfwsl::provision {

class CommandProgress {
 public:
  virtual ~CommandProgress() = default;
  // The event one more line of output makes, or nullopt when it says nothing new.
  virtual std::optional<ProgressEvent> line(std::string_view text) = 0;
};

// The reader for a step's command (apt-get install/update, pip install, podman pull/build), or nullptr for one that
// reports nothing worth reading (dpkg --configure, venv, curl). `expected_total`: the plan's
// download figure for the step, pip's only total.
std::unique_ptr<CommandProgress> command_progress_for(const std::string& step, const std::vector<std::string>& argv,
                                                      std::optional<std::uint64_t> expected_total);

// "301 kB" -> 301000, "12.3 MB", "1,167 kB", "307 B", "845 bytes"; nullopt for anything else.
std::optional<std::uint64_t> parse_size_words(std::string_view text);

}  // namespace tfwsl::provision
