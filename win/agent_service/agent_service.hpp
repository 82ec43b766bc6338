#pragma once
// The persistent agent for editors and scripts (`tfwsl agent start | status | stop`, docs/agent-api.md
// "A persistent agent"): tfwsl-agent installed at its place in the distro (k_default_agent_path, or
// TFWSL_AGENT_PATH), serving 127.0.0.1:PORT with the token of a file only its user can read, until
// stopped. Its state lives in the distro user's ~/.config/tfwsl/ (mode 0700):
//   agent.token  the bearer token (0600), made by tfwsl once and kept across restarts;
//   agent.json   the agent's handshake line ({"agent","api","pid","port"}), while it runs;
//   agent.log    its log (0600), agent.err its stderr.
// Each step is one `sh -c` through the DistroShell port, so the unit tests run the real scripts.

#include <optional>
#include <string>
#include <vector>

#include "common/core/error.hpp"
#include "win/agent_service/distro_shell.hpp"

namespace tfwsl::agent_service {

// Where a person finds the agent's own words in the distro (the state folder above, as the user's
// shell spells it): its log, and its stderr, which holds why a start failed before it could log.
inline constexpr const char* k_agent_log_path = "~/.config/tfwsl/agent.log";
inline constexpr const char* k_agent_err_path = "~/.config/tfwsl/agent.err";

struct ServiceStatus {
  std::string agent_path;  // where the installed agent is (or would be)
  bool installed = false;
  std::string installed_version;  // "0.1.0"; empty when not installed or it did not answer
  bool running = false;
  long pid = 0;
  int port = 0;
  std::string running_version;  // from its handshake line
  std::string state_dir;        // ~/.config/tfwsl, as the distro spells it
  std::string token_file;
  std::string token_mode;  // "600"; empty when there is no token file yet
};

// What is there: installed? running (a live process of tfwsl-agent with the pid of agent.json)?
Result<ServiceStatus> read_service_status(DistroShell& shell, const std::string& agent_path);

// Copies `shipped` (a path of this side: through wslpath when the shell is wsl.exe) to `agent_path`
// with mode 0755, as root. Only after the user agreed (the command asks).
Status install_agent(DistroShell& shell, const std::string& shipped, const std::string& agent_path);

struct StartSettings {
  std::string agent_path;
  int port = 0;                    // 0: any free port (agent.json says which)
  std::vector<std::string> roots;  // --root each; empty: the user's home folder
  std::string new_token;           // written only when there is no token file yet
};

// Starts the agent in the background (setsid nohup) and waits (10 s at most) for its handshake.
// An agent already running is left as it is (conflict, with its status in the message). A start
// that fails names the agent's log and stderr files.
Result<ServiceStatus> start_service(DistroShell& shell, const StartSettings& settings);

// Stops the running agent (SIGTERM, then waits 5 s); false when none was running.
Result<bool> stop_service(DistroShell& shell, const std::string& agent_path);

// The token, for `agent status` to ask the agent itself; never printed.
Result<std::string> read_service_token(DistroShell& shell);

// "0.2.0" from "tfwsl-agent 0.2.0 (8da7c92)"; empty when the text is no agent banner.
std::string version_from_banner(const std::string& banner);

}  // namespace tfwsl::agent_service
