#include "common/cli/command_line.hpp"

#include <spdlog/spdlog.h>

#include <cstdlib>
#include <filesystem>
#include <ostream>
#include <sstream>

#include "common/build_info/build_info.hpp"
#include "common/cli/fitted_output.hpp"
#include "common/cli/usage_check.hpp"
#include "common/core/exit_codes.hpp"

namespace tfwsl {

StatusLineSettings status_line_settings(const Console& console) {
  StatusLineSettings settings;
  settings.live = console.live_status;
  settings.columns = console.columns;
  return settings;
}

EnvironmentLookup process_environment() {
  return [](const std::string& name) -> std::optional<std::string> {
    const char* value = std::getenv(name.c_str());
    if (value == nullptr) return std::nullopt;
    return std::string(value);
  };
}

void add_global_options(CLI::App& app, GlobalOptions& options) {
  app.fallthrough();
  // One syntax on every platform: CLI11 takes "/name" as an option on Windows by default, which would
  // make a path such as /data/pasted.txt an unknown option there. Inherited by the subcommands added
  // after this call.
  app.allow_windows_style_options(false);
  app.add_option("--log-level", options.log_level, "Log on stderr from this level up (SPDLOG_LEVEL overrides it)")
      ->check(CLI::IsMember({"trace", "debug", "info", "warn", "error", "off"}))
      ->capture_default_str();
  app.add_option("--log-file", options.log_file, "Also log to this file (rotating, 5 MB x 3); its folder must exist");
  app.add_option("--color", options.color,
                 "Colour on stdout: auto (a terminal, and no NO_COLOR, and TERM is not dumb), always, never")
      ->check(CLI::IsMember({"auto", "always", "never"}))
      ->capture_default_str();
}

std::string help_footer(const std::string& before, const std::vector<std::string>& examples) {
  std::string text = before;
  if (!text.empty()) text += "\n\n";
  text += "Examples:";
  for (const auto& e : examples) text += "\n  " + e;
  return text;
}

std::string exit_status_table() {
  std::string text = "Exit status:";
  for (const auto& m : exit_code::k_meanings) {
    std::string code = std::to_string(m.code);
    text += "\n  " + code + std::string(5 - code.size(), ' ') + m.text;
  }
  return text + "\n\n" + build_info::bug_report_words();
}

namespace {

// spdlog creates a missing folder on its own, so that a mistyped folder would grow a new tree:
// the folder must exist. What else goes wrong (permissions) spdlog's own open reports.
std::optional<std::string> log_file_problem(const std::string& file) {
  std::error_code ec;
  const std::filesystem::path path(file);
  if (std::filesystem::is_directory(path, ec)) return "it is a folder";
  std::filesystem::path folder = path.parent_path();
  if (folder.empty()) return std::nullopt;
  if (!std::filesystem::exists(folder, ec)) return "the folder '" + folder.string() + "' does not exist";
  if (!std::filesystem::is_directory(folder, ec)) return "'" + folder.string() + "' is not a folder";
  return std::nullopt;
}

// Log lines below warn would land in the middle of a line rewritten in place; with them on, the
// status line falls back to plain lines, which interleave cleanly.
bool logs_chatter_on_stderr(const GlobalOptions& globals, const Console& console) {
  std::string level = globals.log_level;
  if (console.environment)
    if (auto from_env = console.environment("SPDLOG_LEVEL"); from_env && !from_env->empty()) level = *from_env;
  return level == "trace" || level == "debug" || level == "info";
}

void decide_terminal_output(const GlobalOptions& globals, Console& console) {
  const ColorMode mode = parse_color_mode(globals.color).value_or(ColorMode::automatic);
  console.color = use_color(mode, console.out_is_terminal, console.environment);
  // "always" writes the sequences whatever the console makes of them (a file, a pipe to less -R).
  if (console.color && console.enable_escape_sequences && !console.enable_escape_sequences(console.out) &&
      mode == ColorMode::automatic)
    console.color = false;
  console.live_status = use_live_line(console.err_is_terminal, console.environment) &&
                        (!console.enable_escape_sequences || console.enable_escape_sequences(console.err)) &&
                        !logs_chatter_on_stderr(globals, console);
}

// CLI11's "The following argument was not expected: x" in plain words: which word, and that the
// command takes no such argument (issue 43, item 11). Other errors keep CLI11's sentence.
std::string parse_error_words(const CLI::ParseError& e) {
  const std::string what = e.what();
  if (dynamic_cast<const CLI::ExtrasError*>(&e) == nullptr) return what;
  const std::size_t colon = what.find(": ");
  if (colon == std::string::npos) return what;
  std::istringstream words(what.substr(colon + 2));
  std::string listed;
  std::size_t count = 0;
  for (std::string word; words >> word; ++count) listed += (listed.empty() ? "'" : ", '") + word + "'";
  return listed + (count == 1 ? " is not an argument of this command" : " are not arguments of this command") +
         " (a value with spaces needs quotes)";
}

int report_parse_error(CLI::App& app, const CLI::ParseError& e, const std::string& command, Console& console) {
  if (e.get_exit_code() == static_cast<int>(CLI::ExitCodes::Success)) {  // --help, --version
    app.exit(e, console.out, console.err);
    return exit_code::k_ok;
  }
  console.err << command << ": " << parse_error_words(e) << "\nRun '" << command << " --help' for its options.\n";
  return exit_code::k_usage;
}

const std::function<int()>* chosen_command(const CLI::App& app, const CommandTable& commands) {
  const CLI::App* chosen = nullptr;
  for (const auto* sub = &app; sub != nullptr;) {
    auto selected = sub->get_subcommands();
    if (selected.empty()) break;
    chosen = selected.front();
    sub = chosen;
  }
  return chosen ? commands.find(chosen) : nullptr;
}

}  // namespace

void CommandTable::add(CLI::App* subcommand, std::function<int()> run) {
  m_entries.emplace_back(subcommand, std::move(run));
}

const std::function<int()>* CommandTable::find(const CLI::App* subcommand) const {
  for (const auto& [sub, run] : m_entries)
    if (sub == subcommand) return &run;
  return nullptr;
}

std::vector<std::string> help_spelled_as_option(const std::vector<std::string>& given) {
  std::vector<std::string> args = given;
  // "tfwsl help provision" is "tfwsl provision --help"; "tfwsl help" is "tfwsl --help".
  if (!args.empty() && args.front() == "help") {
    args.erase(args.begin());
    args.push_back("--help");
  }
  // "/?" is how Windows programs are asked for help; "--" ends the options, so only before it.
  for (auto& a : args) {
    if (a == "--") break;
    if (a == "/?") a = "--help";
  }
  return args;
}

int run_command_line(CLI::App& app, const CommandTable& commands, const std::vector<std::string>& given,
                     Console& console, const GlobalOptions& globals, const std::string& logger_name) {
  std::vector<std::string> args = help_spelled_as_option(given);
  const UsageCheck usage = check_usage(app, args);
  // tfwsl run's own exit codes are the few a command it runs does not use (exit_codes.hpp).
  const int usage_code = usage.runs_another ? exit_code::k_run_refused : exit_code::k_usage;
  if (usage.mistake) {
    console.err << fit_to_width(*usage.mistake, console_text_style(console));
    return usage_code;
  }
  if (usage.passthrough_from) {
    // The words as given: a "/?" there is the command's own (help_spelled_as_option reads it as ours).
    const bool same_places = given.size() == args.size() && (given.empty() || given.front() != "help");
    const std::vector<std::string>& words = same_places ? given : args;
    commands.set_passthrough({words.begin() + static_cast<std::ptrdiff_t>(*usage.passthrough_from), words.end()});
    args.resize(*usage.passthrough_from);
    if (!args.empty() && args.back() == "--") args.pop_back();
  }
  // CLI11 takes a vector in reverse order.
  std::vector<std::string> reversed(args.rbegin(), args.rend());
  try {
    app.parse(reversed);
  } catch (const CLI::ParseError& e) {
    const int code = report_parse_error(app, e, usage.command, console);
    return code == exit_code::k_usage ? usage_code : code;
  }
  decide_terminal_output(globals, console);
  try {
    if (!globals.log_file.empty())
      if (auto problem = log_file_problem(globals.log_file)) throw std::runtime_error(*problem);
    LogOptions log;
    log.logger_name = logger_name;
    log.level = globals.log_level;
    // The sink colours only a terminal by itself; the mode and NO_COLOR / TERM=dumb apply too.
    log.stderr_color = use_color(parse_color_mode(globals.color).value_or(ColorMode::automatic),
                                 console.err_is_terminal, console.environment);
    if (!globals.log_file.empty()) log.file = globals.log_file;
    setup_logging(log);
  } catch (const std::exception& e) {
    console.err << app.get_name() << ": cannot write the log file '" << globals.log_file << "': " << e.what() << "\n";
    return exit_code::k_usage;
  }
  const std::function<int()>* run = chosen_command(app, commands);
  if (!run) {
    console.out << app.help();
    return exit_code::k_usage;
  }
  try {
    return (*run)();
  } catch (const std::exception& e) {
    spdlog::critical("unexpected error: {}", e.what());
    console.err << app.get_name() << ": internal error: " << e.what() << "\nThis is a bug in " << app.get_name()
                << " (add the output of --log-level debug to the report).\n"
                << build_info::bug_report_words() << "\n";
    return exit_code::k_internal;
  }
}

}  // namespace tfwsl
