#pragma once
// `tfwsl uninstall`'s work (docs/uninstall.md): what tfwsl left on Windows (beside .wslconfig:
// uninstall_wslconfig.hpp) and in each distro (win/agent_service/leftovers.hpp), listed, then
// removed item by item once the command has consent. The distros are the ones named, else every one
// `wsl -l -v` lists (on the native Linux build: this machine).

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "common/cli/command_line.hpp"
#include "common/process/process_runner.hpp"
#include "win/agent_service/distro_shell.hpp"
#include "win/render/uninstall_report.hpp"
#include "win/tasks/machine.hpp"
#include "win/wsl/wsl_client.hpp"

namespace tfwsl::cli {

struct UninstallSettings {
  std::vector<std::string> distros;  // empty: every distribution WSL lists
  std::string wslconfig;             // empty: the default .wslconfig, when there is one
  std::string state_dir;             // empty: provision's default state folder
};

class UninstallTask {
 public:
  UninstallTask(UninstallSettings settings, const Console& console, Machine& machine);
  // Lists everything, on Windows and in each distro; a place that cannot be looked at is an item
  // left alone that says why.
  UninstallReport list();
  // Removes each item to remove, in order, recording each outcome; `on_each` after each one.
  void remove(UninstallReport& report, const std::function<void(const UninstallEntry&)>& on_each);

 private:
  void list_wslconfig(UninstallReport& report);
  void list_distro(UninstallReport& report, agent_service::DistroShell& shell);
  agent_service::DistroShell* shell_for(const std::string& where);

  UninstallSettings m_settings;
  const Console& m_console;
  bool m_windows;
  Machine& m_machine;
  ProcessRunner& m_runner;
  wsl::WslClient& m_wsl;
  std::string m_agent_path;
  std::vector<std::unique_ptr<agent_service::DistroShell>> m_shells;
};

}  // namespace tfwsl::cli
