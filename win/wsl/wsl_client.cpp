#include "win/wsl/wsl_client.hpp"

#include <spdlog/spdlog.h>

#include <cstdlib>

namespace tfwsl::wsl {

std::optional<std::string> process_environment_variable(const std::string& name) {
  const char* value = std::getenv(name.c_str());
  if (value == nullptr || *value == '\0') return std::nullopt;
  return std::string(value);
}

std::string locate_wsl_exe(const std::function<std::optional<std::string>(const std::string&)>& getenv) {
  if (auto configured = getenv(k_wsl_exe_env)) return *configured;
  auto root = getenv("SystemRoot");
  if (!root) root = getenv("windir");
  if (!root) return "wsl.exe";  // not on Windows (or a stripped environment): PATH decides
  std::string base = *root;
  if (!base.empty() && (base.back() == '\\' || base.back() == '/')) base.pop_back();
  // A 64-bit tfwsl sees the real System32 (no WOW64 redirection to SysWOW64, which has no wsl.exe).
  return base + "\\System32\\wsl.exe";
}

WslSettings wsl_settings_from_environment() {
  WslSettings settings;
  settings.exe = locate_wsl_exe(process_environment_variable);
  return settings;
}

Error to_error(const WslFailure& failure) {
  Error e;
  switch (failure.kind) {
    case WslFailureKind::no_distro:
    case WslFailureKind::distro_not_found:
    case WslFailureKind::wsl_not_installed:
      e.code = ErrorCode::not_found;
      break;
    case WslFailureKind::cli_too_old:
    case WslFailureKind::virtualization_disabled:
      e.code = ErrorCode::unsupported;
      break;
    default:
      e.code = ErrorCode::process;
      break;
  }
  e.message = failure.message + (failure.fix.empty() ? "" : k_fix_separator + failure.fix);
  e.detail = failure.code;
  return e;
}

MessageAndFix split_fix(const std::string& error_message) {
  const auto at = error_message.find(k_fix_separator);
  if (at == std::string::npos) return {error_message, ""};
  return {error_message.substr(0, at), error_message.substr(at + std::string(k_fix_separator).size())};
}

WslClient::WslClient(ProcessRunner& runner, WslSettings settings) : m_runner(runner), m_settings(std::move(settings)) {}

std::map<std::string, std::string> WslClient::child_environment() { return {{"WSL_UTF8", "1"}}; }

Result<WslReply> WslClient::manage(std::vector<std::string> args, std::chrono::milliseconds timeout) {
  ProcessRequest request;
  request.argv.push_back(m_settings.exe);
  request.argv.insert(request.argv.end(), args.begin(), args.end());
  request.env = child_environment();
  request.timeout = timeout;
  const std::string shown = describe_command(args);
  ++m_starts;
  auto outcome = m_runner.run(request);
  if (!outcome) {
    Error e = outcome.error();
    if (e.code == ErrorCode::not_found) {
      e.message = "wsl.exe not found at " + m_settings.exe + ": WSL is not installed" + k_fix_separator +
                  "run 'wsl.exe --install' in an administrator terminal "
                  "(or set " +
                  std::string(k_wsl_exe_env) + " to its path)";
    }
    e.context.push_back("running wsl.exe " + shown);
    return tl::unexpected(std::move(e));
  }
  if (outcome->timed_out) {
    return make_error(ErrorCode::timeout,
                      "wsl.exe " + shown + " did not answer within " + std::to_string(timeout.count() / 1000) + " s" +
                          k_fix_separator + "run 'wsl --shutdown' and try again (the WSL service may be hung)",
                      describe_command(request.argv));
  }
  WslReply reply;
  reply.exit_code = outcome->exit_code;
  auto decoded = decode_console_output(outcome->out);
  reply.text = std::move(decoded.text);
  reply.encoding = decoded.encoding;
  reply.err_text = decode_console_output(outcome->err).text;
  reply.elapsed = outcome->elapsed;
  reply.failure = classify_wsl_result(reply.exit_code, reply.text + "\n" + reply.err_text, shown);
  if (reply.failure.kind != WslFailureKind::none) {
    spdlog::info("wsl.exe {} failed ({}): {}", shown, to_string(reply.failure.kind), reply.failure.code);
  }
  return reply;
}

Result<WslReply> WslClient::list_verbose() { return manage({"-l", "-v"}, m_settings.timeout); }
Result<WslReply> WslClient::status() { return manage({"--status"}, m_settings.timeout); }
Result<WslReply> WslClient::version() { return manage({"--version"}, m_settings.timeout); }
Result<WslReply> WslClient::shutdown() { return manage({"--shutdown"}, m_settings.timeout); }
Result<WslReply> WslClient::list_running() { return manage({"--list", "--running", "--quiet"}, m_settings.timeout); }
Result<WslReply> WslClient::terminate(const std::string& distro) {
  return manage({"--terminate", distro}, m_settings.timeout);
}
Result<WslReply> WslClient::install(const std::string& distro) {
  return manage({"--install", "-d", distro, "--no-launch"}, m_settings.install_timeout);
}

std::vector<std::string> WslClient::exec_argv(const ExecTarget& target,
                                              const std::vector<std::string>& linux_argv) const {
  std::vector<std::string> argv{m_settings.exe};
  if (!target.distro.empty()) argv.insert(argv.end(), {"-d", target.distro});
  if (!target.user.empty()) argv.insert(argv.end(), {"-u", target.user});
  if (!target.cd.empty()) argv.insert(argv.end(), {"--cd", target.cd});
  argv.push_back("--exec");
  argv.insert(argv.end(), linux_argv.begin(), linux_argv.end());
  return argv;
}

Result<WslReply> WslClient::exec(const ExecTarget& target, const std::vector<std::string>& linux_argv,
                                 std::optional<std::string> stdin_data,
                                 std::optional<std::chrono::milliseconds> timeout,
                                 std::function<void(std::string_view)> on_stderr) {
  if (linux_argv.empty()) return make_error(ErrorCode::internal, "wsl --exec needs a program");
  ProcessRequest request;
  request.argv = exec_argv(target, linux_argv);
  request.env = child_environment();
  request.stdin_data = std::move(stdin_data);
  request.timeout = timeout.value_or(m_settings.exec_timeout);
  request.on_stderr = std::move(on_stderr);
  ++m_starts;
  auto outcome = m_runner.run(request);
  if (!outcome) return tl::unexpected(outcome.error());
  if (outcome->timed_out) {
    return make_error(
        ErrorCode::timeout,
        linux_argv[0] + " in WSL did not finish within " + std::to_string(request.timeout.count() / 1000) + " s",
        describe_command(request.argv));
  }
  WslReply reply;
  reply.exit_code = outcome->exit_code;
  reply.text = std::move(outcome->out);
  reply.err_text = decode_console_output(outcome->err).text;
  reply.elapsed = outcome->elapsed;
  // wsl.exe's own failures (no such distro, VM cannot start) come as -1 with a message; the Linux
  // program's failures are its own exit code and are the caller's to judge.
  if (is_wsl_error_exit(reply.exit_code)) {
    std::string text = decode_console_output(reply.text).text + "\n" + reply.err_text;
    reply.failure = classify_wsl_result(reply.exit_code, text, "--exec " + linux_argv[0]);
  }
  return reply;
}

}  // namespace tfwsl::wsl
