#include "win/tasks/distro_commands.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <string>

#include "common/process/process_runner.hpp"
#include "win/wsl/wsl_client.hpp"

namespace tfwsl::cli {
namespace {

class WslDistroCommands final : public DistroCommands {
 public:
  WslDistroCommands(std::string distro, wsl::WslClient& wsl) : m_distro(std::move(distro)), m_wsl(wsl) {}
  Result<DistroReply> run(const std::vector<std::string>& argv, std::optional<std::string> stdin_text,
                          std::chrono::milliseconds timeout) override {
    TFWSL_TRY(reply, m_wsl.exec({m_distro, "", ""}, argv, std::move(stdin_text), timeout));
    return DistroReply{reply.exit_code, reply.text, reply.err_text};
  }

 private:
  std::string m_distro;
  wsl::WslClient& m_wsl;
};

class LocalDistroCommands final : public DistroCommands {
 public:
  explicit LocalDistroCommands(ProcessRunner& processes) : m_processes(processes) {}
  Result<DistroReply> run(const std::vector<std::string>& argv, std::optional<std::string> stdin_text,
                          std::chrono::milliseconds timeout) override {
    ProcessRequest request;
    request.argv = argv;
    request.stdin_data = std::move(stdin_text);
    request.timeout = timeout;
    TFWSL_TRY(outcome, m_processes.run(request));
    return DistroReply{outcome.exit_code, outcome.out, outcome.err};
  }

 private:
  ProcessRunner& m_processes;
};

// POSIX sh in the distro: "$1" with a leading "~/" made $HOME's (no shell string is built from data:
// the path is an argument).
constexpr const char* k_expand_home = R"(p=$1; case $p in "~/"*) p=$HOME/${p#"~/"};; esac; )";
constexpr auto k_file_timeout = std::chrono::seconds(120);

}  // namespace

std::unique_ptr<DistroCommands> make_distro_commands(const std::string& distro, Machine& machine) {
  if (machine.host.system().is_windows) return std::make_unique<WslDistroCommands>(distro, machine.wsl);
  return std::make_unique<LocalDistroCommands>(machine.processes);
}

bool distro_folder_exists(DistroCommands& commands, const std::string& linux_path) {
  const std::string script = std::string(k_expand_home) + R"(test -d "$p")";
  // test -d answers 0 or 1; anything else (wsl.exe or the relay failing on a loaded machine) is no
  // answer, and asked once more before the folder counts as gone.
  for (int attempt = 0; attempt < 2; ++attempt) {
    auto reply = commands.run({"sh", "-c", script, "sh", linux_path}, std::nullopt, k_file_timeout);
    if (reply && (reply->exit_code == 0 || reply->exit_code == 1)) return reply->exit_code == 0;
    spdlog::warn("checking {} in the distro gave no answer ({}); asking again", linux_path,
                 reply ? "exit " + std::to_string(reply->exit_code) : reply.error().describe());
  }
  return false;
}

std::optional<std::string> distro_python_fails(DistroCommands& commands, const std::string& venv) {
  const std::string script = std::string(k_expand_home) + R"(exec "$p/bin/python" -c "import sys")";
  auto reply = commands.run({"sh", "-c", script, "sh", venv}, std::nullopt, k_file_timeout);
  if (!reply) return reply.error().describe();
  if (reply->exit_code != 0)
    return fmt::format("{}/bin/python does not run (exit {}{}{})", venv, reply->exit_code,
                       reply->err.empty() ? "" : ": ", reply->err.substr(0, 300));
  return std::nullopt;
}

Result<std::string> distro_home(DistroCommands& commands) {
  TFWSL_TRY(reply, commands.run({"sh", "-c", R"(printf %s "$HOME")"}, std::nullopt, k_file_timeout));
  if (reply.exit_code != 0 || reply.out.empty() || reply.out.front() != '/')
    return make_error(ErrorCode::process, "the distro's user has no home folder ($HOME)", reply.err);
  return reply.out;
}

}  // namespace tfwsl::cli
