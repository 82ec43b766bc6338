#pragma once
// The agent installed in a distro against the one shipped with this tfwsl (docs/agent-api.md,
// "Upgrading the agent"). Upgrading tfwsl (winget, Scoop, a new zip) replaces tfwsl.exe and the
// tfwsl-agent beside it, never the copy installed in each distro: that one stays older until a verb
// installs the new one. Which verbs do, and why (docs/cli.md):
//   tfwsl agent start   installs it and restarts a running older one (the persistent agent is its job);
//   tfwsl provision, tfwsl migrate   on Windows they run the installed agent itself, as root, so an
//                       older one would do the old version's work: they upgrade it first;
//   tfwsl doctor, tfwsl data push    run the shipped agent when the installed one is another version
//                       (agent_bridge.hpp), so nothing is wrong in them: the doctor, which changes
//                       nothing, says which command upgrades it.
// Every upgrade is a change of the distro: --dry-run says it, a terminal is asked, --yes agrees.

#include <string>

#include "common/cli/command_line.hpp"
#include "common/core/error.hpp"
#include "win/agent_service/agent_service.hpp"
#include "win/render/agent_version_words.hpp"
#include "win/tasks/machine.hpp"

namespace tfwsl::cli {

struct AgentInstall {
  std::string shipped;     // this side's tfwsl-agent (local_agent_binary)
  std::string agent_path;  // where it is installed in the distro
  std::string verb;        // "tfwsl provision": who asks
  bool yes = false;
  bool dry_run = false;  // say what would be installed; install nothing
};

// Installs the shipped agent at agent_path, asking first; `status` says what is there now (its
// version named in the question). With dry_run it prints "would install ..." and changes nothing.
Status install_agent_with_consent(agent_service::DistroShell& shell, const agent_service::ServiceStatus& status,
                                  const AgentInstall& install, Console& console);

// For provision and migrate: when the installed agent is older than this tfwsl, install this one (as
// above); an absent, current or newer agent, or a distro that cannot be asked (not installed yet), is
// left as it is. A running persistent agent keeps its
// old process until `tfwsl agent stop` and `tfwsl agent start`, which the message says.
Status upgrade_older_agent(agent_service::DistroShell& shell, const AgentInstall& install, Console& console);

// Windows, before provision and migrate run the installed agent in `distro` (empty: the default):
// upgrade_older_agent through wsl.exe, with the shipped agent found as every command finds it
// (`agent_option`: --agent) at the installed agent's place (TFWSL_AGENT_PATH or the default). No
// shipped agent to install: nothing is done, the installed one runs as before.
Status upgrade_distro_agent(const std::string& distro, const std::string& agent_option, AgentInstall install,
                            Console& console, Machine& machine);

}  // namespace tfwsl::cli
