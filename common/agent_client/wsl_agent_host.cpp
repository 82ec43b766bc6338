#include "common/agent_client/wsl_agent_host.hpp"

#include <cctype>

#include <spdlog/spdlog.h>

#include "common/wsl/drive_path.hpp"

namespace tfwsl::agent_client {

WslAgentHost::WslAgentHost(wsl::WslClient& wsl, ChildLauncher& launcher, WslAgentSettings settings)
    : m_wsl(wsl), m_launcher(launcher), m_settings(std::move(settings)) {}

std::string WslAgentHost::where() const {
  return m_settings.distro.empty() ? "in the default WSL distribution" : "in " + m_settings.distro;
}

Result<std::unique_ptr<ChildChannel>> WslAgentHost::start_agent(const std::vector<std::string>& args) {
  std::vector<std::string> command{m_settings.agent_path};
  command.insert(command.end(), args.begin(), args.end());
  auto argv = m_wsl.exec_argv({m_settings.distro, "", ""}, command);
  m_wsl.count_start();
  return m_launcher.start(argv, wsl::WslClient::child_environment());
}

std::string WslAgentHost::automount_root(char drive) {
  const std::string drive_root = std::string(1, static_cast<char>(std::toupper(static_cast<unsigned char>(drive)))) + ":\\";
  auto reply = m_wsl.exec({m_settings.distro, "", ""}, {"wslpath", "-u", drive_root});
  if (reply && reply->exit_code == 0) {
    if (auto root = wsl::automount_root_from_wslpath(reply->text, drive)) return *root;
  }
  const std::string why = !reply ? reply.error().message : "it answered '" + reply->text.substr(0, 100) + "' " + reply->err_text.substr(0, 200);
  spdlog::warn("wslpath -u '{}' {} gave no mount point ({}); taking WSL's default {}", drive_root, where(), why,
               wsl::k_default_automount_root);
  return wsl::k_default_automount_root;
}

Status WslAgentHost::install_agent() {
  const std::string& shipped = m_settings.shipped_agent;
  if (shipped.empty()) {
    return make_error(ErrorCode::not_found,
                      "no tfwsl-agent ships next to tfwsl.exe to install: reinstall tfwsl, or name one with --agent PATH");
  }
  auto drive = wsl::drive_letter_of(shipped);
  auto source = drive ? wsl::drive_path_in_distro(shipped, automount_root(*drive)) : std::nullopt;
  if (!source) {
    return make_error(ErrorCode::not_found, "cannot install the agent: '" + shipped +
                                                "' is not on a drive the distro mounts (copy tfwsl to a local drive such as C:)");
  }
  spdlog::info("installing tfwsl-agent {} at {}", where(), m_settings.agent_path);
  auto reply = m_wsl.exec({m_settings.distro, "root", ""}, {"install", "-D", "-m", "0755", *source, m_settings.agent_path});
  if (!reply) return tl::unexpected(reply.error());
  if (reply->exit_code != 0) {
    return make_error(ErrorCode::process, "installing the agent " + where() + " failed: " +
                                              (reply->failure.message.empty() ? reply->err_text : reply->failure.message));
  }
  return {};
}

}  // namespace tfwsl::agent_client
