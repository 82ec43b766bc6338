#pragma once
// The one logging set-up (spdlog). Logs go to stderr (and optionally a rotating file); stdout is
// for results only. Everything else calls spdlog::info/warn/debug directly.

#include <filesystem>
#include <optional>
#include <string>

namespace tfwsl {

struct LogOptions {
  std::string logger_name = "tfwsl";
  std::string level = "warn";                 // trace, debug, info, warn, error or off (--log-level)
  bool stderr_color = true;                   // false: no colour on the level names (NO_COLOR, --color never)
  std::optional<std::filesystem::path> file;  // rotating file, 5 MB x 3, always at debug level
};

// Builds the sinks once and installs the default logger. SPDLOG_LEVEL in the environment, when set,
// overrides the level chosen by --log-level (spdlog's own syntax: "debug", "info,tfwsl=trace").
void setup_logging(const LogOptions& options);

}  // namespace tfwsl
