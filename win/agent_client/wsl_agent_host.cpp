#include "win/agent_client/wsl_agent_host.hpp"

#include <spdlog/spdlog.h>

#include "common/wsl/drive_path.hpp"
#include "win/wsl/automount_query.hpp"

namespace tfwsl::agent_client {

const char* temp_copy_script() {
  // mktemp makes the file 0600 and ours; cp keeps that mode, chmod adds only the owner's x bit.
  // Traps end the shell on a signal, so its EXIT trap removes the copy on every way out.
  return "t=$(mktemp \"${TMPDIR:-/tmp}/tfwsl-agent.XXXXXX\") || exit 127\n"
         "trap 'rm -f \"$t\"' EXIT\n"
         "trap 'exit 129' HUP\n"
         "trap 'exit 130' INT\n"
         "trap 'exit 143' TERM\n"
         "cp \"$1\" \"$t\" && chmod 0700 \"$t\" || exit 127\n"
         "shift\n"
         "\"$t\" \"$@\"\n";
}

WslAgentHost::WslAgentHost(wsl::WslClient& wsl, ChildLauncher& launcher, WslAgentSettings settings)
    : m_wsl(wsl), m_launcher(launcher), m_settings(std::move(settings)) {}

std::string WslAgentHost::where() const {
  return m_settings.distro.empty() ? "in the default WSL distribution" : "in " + m_settings.distro;
}

Result<std::unique_ptr<ChildChannel>> WslAgentHost::launch(const std::vector<std::string>& command) {
  auto argv = m_wsl.exec_argv({m_settings.distro, "", ""}, command);
  m_wsl.count_start();
  return m_launcher.start(argv, wsl::WslClient::child_environment());
}

Result<std::unique_ptr<ChildChannel>> WslAgentHost::start_agent(const std::vector<std::string>& args) {
  std::vector<std::string> command{m_settings.agent_path};
  command.insert(command.end(), args.begin(), args.end());
  return launch(command);
}

Result<std::unique_ptr<ChildChannel>> WslAgentHost::start_shipped_agent(const std::vector<std::string>& args,
                                                                        ShippedRun how) {
  TFWSL_TRY(source, shipped_in_distro());
  std::vector<std::string> command;
  if (how == ShippedRun::in_place) {
    command = {source};
  } else {
    // "$0" of the script: what ps shows for the shell.
    command = {"sh", "-c", temp_copy_script(), "tfwsl-agent", source};
  }
  command.insert(command.end(), args.begin(), args.end());
  spdlog::info("running the shipped tfwsl-agent {} {}", where(),
               how == ShippedRun::in_place ? "from " + source : "from a temporary copy of " + source);
  return launch(command);
}

std::string WslAgentHost::automount_root(char drive) {
  return wsl::query_automount_root(m_wsl, m_settings.distro, drive);
}

Result<std::string> WslAgentHost::shipped_in_distro() {
  if (m_shipped_in_distro) return *m_shipped_in_distro;
  const std::string& shipped = m_settings.shipped_agent;
  if (shipped.empty()) {
    return make_error(ErrorCode::not_found,
                      "no tfwsl-agent ships next to tfwsl.exe to run: reinstall tfwsl, or name one with --agent PATH");
  }
  auto drive = wsl::drive_letter_of(shipped);
  auto source = drive ? wsl::drive_path_in_distro(shipped, automount_root(*drive)) : std::nullopt;
  if (!source) {
    return make_error(ErrorCode::not_found,
                      "cannot run the shipped agent: '" + shipped +
                          "' is not on a drive the distro mounts (copy tfwsl to a local drive such as C:)");
  }
  m_shipped_in_distro = *source;
  return *source;
}

}  // namespace tfwsl::agent_client
