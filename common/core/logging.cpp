#include "common/core/logging.hpp"

#include <spdlog/cfg/env.h>
#include <spdlog/sinks/rotating_file_sink.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <memory>
#include <vector>

#include "common/core/private_log_file.hpp"

namespace tfwsl {

void setup_logging(const LogOptions& options) {
  // from_str reads "warn" and "warning" alike; a name it does not know would be "off", so the
  // command line only lets the six names through (add_global_options).
  auto level = spdlog::level::from_str(options.level);
  auto console = std::make_shared<spdlog::sinks::stderr_color_sink_mt>();
  console->set_level(spdlog::level::trace);
  if (!options.stderr_color) console->set_color_mode(spdlog::color_mode::never);
  console->set_pattern("%^%l%$: %v");
  std::vector<spdlog::sink_ptr> sinks{console};
  if (options.file) {
    // spdlog opens by path: the file is judged first (no link, regular, ours), and what spdlog then
    // opened must be the file judged, for the first file and for each one a rotation starts.
    auto judged = std::make_shared<LogFileIdentity>();
    spdlog::file_event_handlers private_file;
    private_file.before_open = [judged](const spdlog::filename_t& name) { *judged = open_private_log_file(name); };
    private_file.after_open = [judged](const spdlog::filename_t&, std::FILE* f) { check_opened_log_file(f, *judged); };
    // Opens the file now: a path that cannot be created throws here, before the command runs.
    auto file = std::make_shared<spdlog::sinks::rotating_file_sink_mt>(options.file->string(), 5 * 1024 * 1024, 3,
                                                                       false, private_file);
    file->set_level(spdlog::level::debug);
    file->set_pattern("%Y-%m-%dT%H:%M:%S.%e %n[%t] %l: %v");
    sinks.push_back(file);
  }
  auto logger = std::make_shared<spdlog::logger>(options.logger_name, sinks.begin(), sinks.end());
  logger->set_level(level);
  if (options.file) logger->flush_on(spdlog::level::info);
  spdlog::set_default_logger(logger);
  spdlog::cfg::load_env_levels();  // SPDLOG_LEVEL wins over --log-level when the user sets it
}

}  // namespace tfwsl
