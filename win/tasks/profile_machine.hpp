#pragma once
// The use cases behind `tfwsl profile diff` and `tfwsl profile export`: this machine's facts (gathered as `tfwsl
// doctor` gathers them: host, .wslconfig, the agent's GET /v1/facts) against a profile, or as one.

#include <string>

#include "common/cli/command_line.hpp"
#include "win/tasks/machine.hpp"

namespace tfwsl::cli {

struct MachineArgs {
  std::string distro;  // --distro; empty: WSL's default
  std::string agent;   // --agent
  bool quiet = false;  // no status line
};

struct DiffArgs {
  std::string profile;  // PROFILE or --profile; empty: choose_profile decides
  MachineArgs machine;
  bool json = false;
};

struct ExportArgs {
  MachineArgs machine;
  std::string name = "this-machine";
  std::string file;  // -o/--file; empty: standard output
  std::string base;  // --base: a profile the export extends, for what the machine does not show
  bool yes = false;
  bool dry_run = false;
};

int run_profile_diff(const DiffArgs& args, Console& console, Machine& machine);
int run_profile_export(const ExportArgs& args, Console& console, Machine& machine);

}  // namespace tfwsl::cli
