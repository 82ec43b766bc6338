#include "win/commands/command_registry.hpp"

namespace tfwsl::cli {

// Subcommands register themselves here as they are added (explain, doctor, ...).
void register_commands(CLI::App& app, CommandTable& commands, Console& console) {
  (void)app;
  (void)commands;
  (void)console;
}

}  // namespace tfwsl::cli
