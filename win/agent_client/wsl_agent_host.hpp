#pragma once
// The agent inside a WSL distro, reached through wsl.exe (tfwsl.exe on Windows). Nothing is installed
// and nothing is written outside a temporary file the run removes (docs/doctor.md, "Changes nothing"):
//   installed: wsl.exe -d D --exec <agent_path> <args...>, a long-lived child (closing its stdin ends it);
//   shipped:   the tfwsl-agent next to tfwsl.exe, run where it lies through the distro's view of its
//              Windows path: wsl.exe -d D --exec /mnt/c/.../tfwsl-agent <args...>;
//   temp copy: when that drive is mounted noexec, the same file copied to a mktemp file in the
//              distro's $TMPDIR (default /tmp) by `sh -c`, run from there and removed when it exits
//              (temp_copy_script()).
// The distro view needs the distro's automount root, which /etc/wsl.conf can move (root = /windir/):
// it is asked with `wslpath -u '<drive>:\'` (wslpath ships in every WSL distro and applies wsl.conf
// itself; no agent route is needed, the agent may be the thing missing). One more wsl.exe start,
// only when the shipped agent is needed; if wslpath gives no usable answer, WSL's default /mnt/ is taken.

#include <optional>
#include <string>

#include "win/agent_client/agent_host.hpp"
#include "win/wsl/wsl_client.hpp"

namespace tfwsl::agent_client {

// Where a persistent agent lives inside the distro unless TFWSL_AGENT_PATH says otherwise.
inline constexpr const char* k_default_agent_path = "/usr/local/lib/tfwsl/tfwsl-agent";
inline constexpr const char* k_agent_path_env = "TFWSL_AGENT_PATH";

struct WslAgentSettings {
  std::string distro;                             // empty: the default distribution
  std::string agent_path = k_default_agent_path;  // Linux path inside the distro
  std::string shipped_agent;                      // Windows path of the agent shipped with tfwsl; empty: none
};

// The `sh -c` script of a temp-copy run: $1 is the shipped agent, the rest its arguments. The copy
// is removed on every way out of the shell (the agent's exit, SIGHUP, SIGINT, SIGTERM).
const char* temp_copy_script();

class WslAgentHost final : public AgentHost {
 public:
  WslAgentHost(wsl::WslClient& wsl, ChildLauncher& launcher, WslAgentSettings settings);
  std::string where() const override;
  bool forwards_localhost() const override { return true; }
  Result<std::unique_ptr<ChildChannel>> start_agent(const std::vector<std::string>& args) override;
  Result<std::unique_ptr<ChildChannel>> start_shipped_agent(const std::vector<std::string>& args,
                                                            ShippedRun how) override;
  std::string shipped_agent_path() const override { return m_shipped_in_distro.value_or(""); }

 private:
  std::string automount_root(char drive);
  Result<std::string> shipped_in_distro();
  Result<std::unique_ptr<ChildChannel>> launch(const std::vector<std::string>& command);

  wsl::WslClient& m_wsl;
  ChildLauncher& m_launcher;
  WslAgentSettings m_settings;
  std::optional<std::string> m_shipped_in_distro;  // asked once per run
};

}  // namespace tfwsl::agent_client
