#include "win/agent_service/distro_shell.hpp"

namespace tfwsl::agent_service {
namespace {

std::vector<std::string> sh_argv(const std::string& script, const std::vector<std::string>& args) {
  std::vector<std::string> argv{"sh", "-c", script, "sh"};
  argv.insert(argv.end(), args.begin(), args.end());
  return argv;
}

}  // namespace

Result<ShellReply> WslDistroShell::sh(const std::string& script, const std::vector<std::string>& args,
                                      const std::optional<std::string>& input, bool as_root) {
  TFWSL_TRY(reply, m_wsl.exec({m_distro, as_root ? "root" : "", ""}, sh_argv(script, args), input));
  return ShellReply{reply.exit_code, reply.text, reply.err_text};
}

Result<ShellReply> LocalDistroShell::sh(const std::string& script, const std::vector<std::string>& args,
                                        const std::optional<std::string>& input, bool) {
  ProcessRequest request;
  request.argv = sh_argv(script, args);
  request.stdin_data = input;
  request.timeout = std::chrono::seconds(60);
  TFWSL_TRY(outcome, m_runner.run(request));
  if (outcome.timed_out) return make_error(ErrorCode::timeout, "sh -c ... did not finish within 60 s");
  return ShellReply{outcome.exit_code, outcome.out, outcome.err};
}

}  // namespace tfwsl::agent_service
