#include "common/cli/command_line.hpp"

#include <spdlog/spdlog.h>

#include <ostream>

#include "common/core/exit_codes.hpp"
#include "common/util/suggest.hpp"

namespace tfwsl {

void add_global_options(CLI::App& app, GlobalOptions& options) {
  app.add_flag("-v,--verbose", options.verbosity, "More output on stderr (-v info, -vv debug)");
  app.add_option("--log-file", options.log_file, "Also log to this file (rotating, debug level)");
}

namespace {

// The first argument that is not an option (nor an option's value), when it names no subcommand.
// Both executables take no positional arguments at the top level, only subcommands.
std::optional<std::string> unknown_subcommand(CLI::App& app, const std::vector<std::string>& args) {
  auto subs = app.get_subcommands([](CLI::App*) { return true; });
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--") return std::nullopt;
    if (!a.empty() && a[0] == '-') {
      // "--log-file PATH": skip the value of an option that takes one (not written with '=').
      if (a.find('=') == std::string::npos) {
        const CLI::Option* opt = app.get_option_no_throw(a);
        if (opt && opt->get_items_expected_min() > 0) ++i;  // a counted flag like -v takes none
      }
      continue;
    }
    for (auto* s : subs)
      if (s->check_name(a)) return std::nullopt;
    return a;
  }
  return std::nullopt;
}

std::vector<std::string> subcommand_names(CLI::App& app) {
  std::vector<std::string> names;
  for (auto* s : app.get_subcommands([](CLI::App*) { return true; })) names.push_back(s->get_name());
  return names;
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

int run_command_line(CLI::App& app, const CommandTable& commands, const std::vector<std::string>& args,
                     Console& console, const GlobalOptions& globals, const std::string& logger_name) {
  if (auto bad = unknown_subcommand(app, args)) {
    console.err << app.get_name() << ": unknown command '" << *bad << "'.";
    if (auto suggestion = closest_match(*bad, subcommand_names(app))) console.err << " Did you mean '" << *suggestion << "'?";
    console.err << "\nRun '" << app.get_name() << " --help' for the list of commands.\n";
    return exit_code::k_usage;
  }
  // CLI11 takes a vector in reverse order.
  std::vector<std::string> reversed(args.rbegin(), args.rend());
  try {
    app.parse(reversed);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e, console.out, console.err);
    return code == 0 ? exit_code::k_ok : exit_code::k_usage;
  }
  try {
    LogOptions log{logger_name, globals.verbosity, std::nullopt};
    if (!globals.log_file.empty()) log.file = globals.log_file;
    setup_logging(log);
  } catch (const std::exception& e) {
    console.err << app.get_name() << ": cannot open the log file '" << globals.log_file << "': " << e.what() << "\n";
    return exit_code::k_usage;
  }
  const CLI::App* chosen = nullptr;
  for (const auto* sub = &app; sub != nullptr;) {
    auto selected = sub->get_subcommands();
    if (selected.empty()) break;
    chosen = selected.front();
    sub = chosen;
  }
  const std::function<int()>* run = chosen ? commands.find(chosen) : nullptr;
  if (!run) {
    console.out << app.help();
    return exit_code::k_usage;
  }
  try {
    return (*run)();
  } catch (const std::exception& e) {
    spdlog::critical("unexpected error: {}", e.what());
    console.err << app.get_name() << ": internal error: " << e.what() << "\nThis is a bug in "
                << app.get_name() << "; please report it with the output of -vv.\n";
    return exit_code::k_internal;
  }
}

}  // namespace tfwsl
