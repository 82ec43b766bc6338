#include "win/tasks/agent_upgrade.hpp"

#include <spdlog/spdlog.h>

#include "common/process/process_runner.hpp"
#include "common/text/utf_convert.hpp"
#include "common/util/visible_text.hpp"
#include "common/version/version.hpp"
#include "win/platform/local_agent_binary.hpp"
#include "win/tasks/agent_consent.hpp"
#include "win/tasks/provision_run.hpp"
#include "win/wsl/wsl_client.hpp"

namespace tfwsl::cli {

Status install_agent_with_consent(agent_service::DistroShell& shell, const agent_service::ServiceStatus& status,
                                  const AgentInstall& install, Console& console) {
  const std::string what = "install tfwsl-agent " + std::string(TFWSL_VERSION) + " (" + install.shipped + ") as " +
                           install.agent_path + " " + shell.where() + (shell.through_wsl() ? " (as root)" : "") +
                           (status.installed ? ", replacing version " + visible_text(status.installed_version) : "");
  if (install.dry_run) {
    console.out << "would " << what << "\n";
    return {};
  }
  TFWSL_TRY_STATUS(confirm_change(console, install.yes, install.verb + " will " + what + ".", "install the agent"));
  TFWSL_TRY_STATUS(agent_service::install_agent(shell, install.shipped, install.agent_path));
  console.err << "installed " << install.agent_path << " " << shell.where() << "\n";
  return {};
}

Status upgrade_older_agent(agent_service::DistroShell& shell, const AgentInstall& install, Console& console) {
  // A distro that cannot be asked (not installed yet: provision's host steps install it) has no
  // agent to upgrade; what the verb does next reports the distro itself.
  auto read = agent_service::read_service_status(shell, install.agent_path);
  if (!read) {
    spdlog::info("no installed agent to upgrade {}: {}", shell.where(), read.error().describe());
    return {};
  }
  const agent_service::ServiceStatus& status = *read;
  if (!status.installed || !agent_is_older(status.installed_version)) return {};
  TFWSL_TRY_STATUS(install_agent_with_consent(shell, status, install, console));
  if (status.running && !install.dry_run && agent_is_older(status.running_version)) {
    console.err << "the persistent agent " << shell.where() << " still runs version "
                << visible_text(status.running_version) << " until it is restarted: tfwsl agent start\n";
  }
  return {};
}

Status upgrade_distro_agent(const std::string& distro, const std::string& agent_option, AgentInstall install,
                            Console& console, Machine& machine) {
  auto shipped = find_local_agent_binary(agent_option);
  if (!shipped) {
    spdlog::info("no shipped agent to upgrade the installed one with: {}", shipped.error().describe());
    return {};
  }
  install.shipped = path_to_utf8(*shipped);
  install.agent_path = distro_agent_path();
  agent_service::WslDistroShell shell(machine.wsl, distro);
  return upgrade_older_agent(shell, install, console);
}

}  // namespace tfwsl::cli
