#include "win/agent_service/agent_service.hpp"

#include <sstream>

#include "common/agent_api/handshake.hpp"
#include "common/util/ascii.hpp"

namespace tfwsl::agent_service {
namespace {

// Shared by the scripts: the state folder, and whether agent.json's pid is a live tfwsl-agent.
constexpr const char* k_prelude =
    "d=\"$HOME/.config/tfwsl\"\n"
    "alive() {\n"
    "  pid=$(sed -n 's/.*\"pid\":\\([0-9][0-9]*\\).*/\\1/p' \"$d/agent.json\" 2>/dev/null)\n"
    "  [ -n \"$pid\" ] && kill -0 \"$pid\" 2>/dev/null && tr '\\0' ' ' < /proc/$pid/cmdline 2>/dev/null | grep -q "
    "'tfwsl-agent.* serve'\n"
    "}\n";

constexpr const char* k_status_script =
    "agent=\"$1\"\n"
    "echo \"state_dir=$d\"\n"
    "if [ -x \"$agent\" ]; then echo installed=yes; echo \"version=$(\"$agent\" --version 2>/dev/null | head -n 1)\"; "
    "else echo installed=no; fi\n"
    "if alive; then echo running=yes; echo \"handshake=$(head -n 1 \"$d/agent.json\")\"; else echo running=no; fi\n"
    "if [ -f \"$d/agent.token\" ]; then echo \"token_mode=$(stat -c %a \"$d/agent.token\")\"; fi\n";

// Runs as root, at a path TFWSL_AGENT_PATH may name: the folder must be a real folder of root's (or
// of whoever runs this) that no one else may write, the agent itself no link (mv would follow a link
// to a folder and drop the file inside it), and the copy goes to an exclusive random name (mktemp)
// renamed over the agent in one step (mv -T), so no planted name is written through.
constexpr const char* k_install_script =
    "src=\"$1\"; dst=\"$2\"\n"
    "if [ \"$3\" = wslpath ]; then src=$(wslpath -u \"$1\") || exit 3; fi\n"
    "dir=$(dirname -- \"$dst\")\n"
    "mkdir -p -- \"$dir\" || exit 3\n"
    "if [ -L \"$dir\" ] || [ ! -d \"$dir\" ]; then echo \"$dir is a link or not a folder: name a real folder\" >&2; "
    "exit 3; fi\n"
    "if [ -z \"$(find \"$dir\" -maxdepth 0 \\( -user 0 -o -user \"$(id -u)\" \\) ! -perm /022)\" ]; then\n"
    "  echo \"$dir belongs to another user or others may write in it: name a folder only root may write\" >&2; exit 3\n"
    "fi\n"
    "if [ -L \"$dst\" ] || { [ -e \"$dst\" ] && [ ! -f \"$dst\" ]; }; then\n"
    "  echo \"$dst is a link or not a regular file: tfwsl installs the agent as a file of its own there\" >&2; exit 3\n"
    "fi\n"
    "tmp=$(mktemp -- \"$dir/.tfwsl-agent.XXXXXXXX\") || exit 3\n"
    "if cat -- \"$src\" > \"$tmp\" && chmod 0755 \"$tmp\" && mv -fT -- \"$tmp\" \"$dst\"; then exit 0; fi\n"
    "rm -f -- \"$tmp\"; exit 3\n";

// $1 agent, $2 port, the rest: roots. The token comes on stdin and is kept only if there is none.
constexpr const char* k_start_script =
    "umask 077\n"
    "mkdir -p \"$d\" && chmod 700 \"$d\" || exit 4\n"
    "if alive; then head -n 1 \"$d/agent.json\"; exit 9; fi\n"
    "if [ ! -s \"$d/agent.token\" ]; then cat > \"$d/agent.token.new\" && mv -f \"$d/agent.token.new\" "
    "\"$d/agent.token\" || exit 4; "
    "else cat > /dev/null; fi\n"
    "chmod 600 \"$d/agent.token\"\n"
    "agent=\"$1\"; port=\"$2\"; shift 2\n"
    "[ $# -eq 0 ] && set -- \"$HOME\"\n"
    "n=$#\n"
    "for r in \"$@\"; do set -- \"$@\" --root \"$r\"; done\n"
    "shift $n\n"
    "set -- serve --listen \"127.0.0.1:$port\" --token-file \"$d/agent.token\" --log-file \"$d/agent.log\" "
    "--log-level info \"$@\"\n"
    "rm -f \"$d/agent.json\"\n"
    "setsid nohup \"$agent\" \"$@\" > \"$d/agent.json\" 2> \"$d/agent.err\" < /dev/null &\n"
    "child=$!\n"
    "i=0\n"
    "while [ $i -lt 100 ]; do\n"
    "  if [ -s \"$d/agent.json\" ]; then head -n 1 \"$d/agent.json\"; exit 0; fi\n"
    "  kill -0 $child 2>/dev/null || { cat \"$d/agent.err\" >&2; exit 5; }\n"
    "  sleep 0.1; i=$((i+1))\n"
    "done\n"
    "cat \"$d/agent.err\" >&2; exit 6\n";

constexpr const char* k_stop_script =
    "alive || { rm -f \"$d/agent.json\"; exit 7; }\n"
    "kill -TERM \"$pid\"\n"
    "i=0; while [ $i -lt 50 ] && kill -0 \"$pid\" 2>/dev/null; do sleep 0.1; i=$((i+1)); done\n"
    "kill -0 \"$pid\" 2>/dev/null && { echo \"pid $pid did not stop within 5 s\" >&2; exit 8; }\n"
    "rm -f \"$d/agent.json\"\n";

std::string script(const char* body) { return std::string(k_prelude) + body; }

Error shell_error(const std::string& what, const ShellReply& reply) {
  std::string err(trim(reply.err.substr(0, 400)));
  return Error{ErrorCode::process,
               what + " (exit " + std::to_string(reply.exit_code) + (err.empty() ? ")" : "): " + err),
               reply.out.substr(0, 400),
               {}};
}

void fill_from_handshake(ServiceStatus& status, const std::string& line) {
  auto handshake = agent_api::parse_handshake_line(std::string(trim(line)));
  if (!handshake) return;
  status.pid = handshake->pid;
  status.port = handshake->port;
  status.running_version = handshake->agent;
}

ServiceStatus parse_status(const std::string& text, const std::string& agent_path) {
  ServiceStatus status;
  status.agent_path = agent_path;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    auto eq = line.find('=');
    if (eq == std::string::npos) continue;
    auto key = line.substr(0, eq), value = line.substr(eq + 1);
    if (key == "state_dir")
      status.state_dir = value;
    else if (key == "installed")
      status.installed = value == "yes";
    else if (key == "version")
      status.installed_version = version_from_banner(value);
    else if (key == "running")
      status.running = value == "yes";
    else if (key == "handshake")
      fill_from_handshake(status, value);
    else if (key == "token_mode")
      status.token_mode = value;
  }
  if (!status.state_dir.empty()) status.token_file = status.state_dir + "/agent.token";
  return status;
}

}  // namespace

// The banner's grammar (build_info::version_line): `tfwsl-agent VERSION (COMMIT)`; agents before
// 0.2.0 printed `tfwsl-agent VERSION`. The version is the word after the program's name, never the
// last word (that is the commit, and taking it made `agent start` reinstall the same version).
std::string version_from_banner(const std::string& banner) {
  std::istringstream words{std::string(trim(banner))};
  std::string program, version;
  if (!(words >> program >> version) || program != "tfwsl-agent") return "";
  return version;
}

Result<ServiceStatus> read_service_status(DistroShell& shell, const std::string& agent_path) {
  TFWSL_TRY(reply, shell.sh(script(k_status_script), {agent_path}, std::nullopt, false));
  if (reply.exit_code != 0)
    return tl::unexpected(shell_error("reading the agent's state " + shell.where() + " failed", reply));
  return parse_status(reply.out, agent_path);
}

Status install_agent(DistroShell& shell, const std::string& shipped, const std::string& agent_path) {
  TFWSL_TRY(reply, shell.sh(k_install_script, {shipped, agent_path, shell.through_wsl() ? "wslpath" : "as-is"},
                            std::nullopt, true));
  if (reply.exit_code != 0)
    return tl::unexpected(
        shell_error("installing " + shipped + " as " + agent_path + " " + shell.where() + " failed", reply));
  return {};
}

Result<ServiceStatus> start_service(DistroShell& shell, const StartSettings& settings) {
  std::vector<std::string> args{settings.agent_path, std::to_string(settings.port)};
  args.insert(args.end(), settings.roots.begin(), settings.roots.end());
  TFWSL_TRY(reply, shell.sh(script(k_start_script), args, settings.new_token + "\n", false));
  if (reply.exit_code == 9)
    return make_error(ErrorCode::conflict, "the agent already runs " + shell.where() + ": " +
                                               std::string(trim(reply.out)) +
                                               " (tfwsl agent stop first to restart it)");
  if (reply.exit_code != 0) {
    Error e = shell_error("starting the agent " + shell.where() + " failed", reply);
    e.message += std::string("; its log: ") + k_agent_log_path + ", its stderr: " + k_agent_err_path + " (" +
                 shell.where() + ")";
    return tl::unexpected(std::move(e));
  }
  TFWSL_TRY(status, read_service_status(shell, settings.agent_path));
  if (!status.running) fill_from_handshake(status, reply.out);
  return status;
}

Result<bool> stop_service(DistroShell& shell, const std::string&) {
  TFWSL_TRY(reply, shell.sh(script(k_stop_script), {}, std::nullopt, false));
  if (reply.exit_code == 7) return false;
  if (reply.exit_code != 0)
    return tl::unexpected(shell_error("stopping the agent " + shell.where() + " failed", reply));
  return true;
}

Result<std::string> read_service_token(DistroShell& shell) {
  TFWSL_TRY(reply, shell.sh("cat \"$HOME/.config/tfwsl/agent.token\"", {}, std::nullopt, false));
  if (reply.exit_code != 0)
    return make_error(ErrorCode::not_found, "the agent's token file cannot be read " + shell.where());
  return std::string(trim(reply.out));
}

}  // namespace tfwsl::agent_service
