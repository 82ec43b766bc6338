#include "linux/commands/command_registry.hpp"

namespace tfwsl::agent {

// Subcommands register themselves here as they are added (serve, check, dataset, ...).
void register_commands(CLI::App& app, CommandTable& commands, Console& console) {
  (void)app;
  (void)commands;
  (void)console;
}

}  // namespace tfwsl::agent
