#include "linux/commands/serve_command.hpp"

#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iostream>
#include <memory>
#include <thread>

#include <spdlog/spdlog.h>

#include "common/agent_api/handshake.hpp"
#include "common/agent_api/token.hpp"
#include "common/core/exit_codes.hpp"
#include "linux/agent/http_server.hpp"
#include "linux/agent/routes.hpp"
#include "linux/agent/stdio_channel.hpp"
#include "linux/checks/check_policy.hpp"
#include "linux/checks/file_text.hpp"

namespace tfwsl::agent {

namespace {

struct ServeArguments {
  std::string listen = "127.0.0.1:0";
  bool stdio_handshake = false;
  std::string token_file;
  std::vector<std::string> roots;
  std::string python = "python3";
  int threads = 8;
  int timeout_s = 5;
  std::string profile;
};

// RELIABILITY.md 7.1.2: a regular file (not a link) of mode 0600, in a 0700 directory, both ours.
Result<std::string> read_token_file(const std::string& path) {
  struct stat file {}, dir {};
  if (lstat(path.c_str(), &file) != 0)
    return make_error(ErrorCode::not_found, "token file '" + path + "': " + std::strerror(errno));
  if (!S_ISREG(file.st_mode))
    return make_error(ErrorCode::permission, "token file '" + path + "' is not a regular file (a symlink?): refusing to start");
  if (file.st_uid != getuid())
    return make_error(ErrorCode::permission, "token file '" + path + "' is owned by another user: refusing to start");
  if ((file.st_mode & 07777) != 0600)
    return make_error(ErrorCode::permission,
                      "token file '" + path + "' must have mode 0600 (chmod 600 '" + path + "'): refusing to start");
  auto parent = std::filesystem::path(path).parent_path();
  if (parent.empty()) parent = ".";
  if (stat(parent.c_str(), &dir) != 0 || !S_ISDIR(dir.st_mode))
    return make_error(ErrorCode::not_found, "the directory of token file '" + path + "' cannot be read");
  if (dir.st_uid != getuid() || (dir.st_mode & 07777) != 0700)
    return make_error(ErrorCode::permission, "the directory '" + parent.string() +
                                                 "' holding the token file must be yours with mode 0700 (chmod 700): "
                                                 "refusing to start");
  auto text = linux_checks::read_text_file(path, 4096);
  if (!text) return make_error(ErrorCode::io, "token file '" + path + "' cannot be read");
  auto token = linux_checks::trim(*text);
  if (!agent_api::is_valid_token(token))
    return make_error(ErrorCode::invalid_input, "token file '" + path + "' must hold 32 to 256 hex digits");
  return token;
}

int fail(Console& console, const Error& error) {
  console.err << "tfwsl-agent serve: " << error.message << "\n";
  return exit_code::k_failure;
}

int serve(const ServeArguments& args, Console& console) {
  if (args.stdio_handshake == !args.token_file.empty())
    return fail(console, Error{ErrorCode::invalid_input,
                               "give exactly one of --stdio-handshake (token on stdin) or --token-file FILE", {}, {}});
  auto address = parse_listen_address(args.listen);
  if (!address) return fail(console, address.error());

  auto context = std::make_unique<AgentContext>();
  if (args.stdio_handshake) {
    auto line = read_line_from_fd(STDIN_FILENO, agent_api::k_max_token_line);
    if (!line) return fail(console, line.error());
    auto token = agent_api::parse_token_line(*line);
    if (!token) return fail(console, token.error());
    context->token = *token;
  } else {
    auto token = read_token_file(args.token_file);
    if (!token) return fail(console, token.error());
    context->token = *token;
  }
  for (const auto& root : args.roots) {
    std::error_code ec;
    auto canonical = std::filesystem::canonical(root, ec);
    if (ec || !std::filesystem::is_directory(canonical))
      return fail(console, Error{ErrorCode::invalid_input, "--root '" + root + "' is not an existing directory", {}, {}});
    context->roots.push_back(canonical);
  }
  context->probe_env = linux_checks::system_probe_environment();
  context->probe_env.python = args.python;
  auto policy = linux_checks::check_policy_for_profile(args.profile.empty() ? linux_checks::k_default_profile : args.profile);
  if (!policy && !args.profile.empty()) return fail(console, policy.error());
  if (policy) {
    context->policy = *policy;
  } else {
    spdlog::warn("default profile unavailable ({}); using built-in defaults", policy.error().describe());
    context->policy.explain_tf_log = linux_checks::explain_tf_log_with_signatures;
  }

  Router router;
  register_all_routes(router, *context);
  ServerLimits limits;
  limits.threads = args.threads;
  limits.read_timeout_s = limits.write_timeout_s = limits.idle_timeout_s = args.timeout_s;
  HttpServer server(router, context->token, limits);
  auto port = server.bind(*address);
  if (!port) return fail(console, port.error());
  context->port = *port;

  // Signals: SIGPIPE ignored (a closed socket or stdout is an error value, not a death); SIGINT and
  // SIGTERM are waited for by a thread that stops the server.
  ::signal(SIGPIPE, SIG_IGN);
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);

  std::thread http([&server] { server.run(); });
  agent_api::HandshakeLine hello{context->version, agent_api::k_api_version, static_cast<long>(getpid()), *port};
  console.out << agent_api::format_handshake_line(hello) << "\n";
  console.out.flush();
  spdlog::info("tfwsl-agent {} serving on {}:{} (pid {})", context->version, address->host, *port, getpid());

  int code = exit_code::k_ok;
  if (args.stdio_handshake) {
    // The signal waiter only needs to stop the server; the stdin loop ends on EOF.
    std::thread([stop_signals, &server]() mutable {
      int sig = 0;
      if (sigwait(&stop_signals, &sig) == 0) {
        spdlog::info("signal {}: stopping", sig);
        server.stop();
        ::close(STDIN_FILENO);
        std::_Exit(0);
      }
    }).detach();
    auto status = serve_stdio_frames(router, STDIN_FILENO, STDOUT_FILENO);
    if (!status) {
      spdlog::error("stdio channel: {}", status.error().describe());
      code = exit_code::k_failure;
    } else {
      spdlog::info("stdin closed: stopping");
    }
  } else {
    int sig = 0;
    sigwait(&stop_signals, &sig);
    spdlog::info("signal {}: stopping", sig);
  }
  server.stop();
  http.join();
  // Probe threads that ran past their limits may still hold the context: leave it to the exit.
  (void)context.release();
  return code;
}

}  // namespace

void register_serve_command(CLI::App& app, CommandTable& commands, Console& console) {
  auto args = std::make_shared<ServeArguments>();
  auto* cmd = app.add_subcommand("serve", "Serve the token-protected loopback API for the tfwsl CLI");
  cmd->add_option("--listen", args->listen, "Loopback address: 127.0.0.1:PORT, localhost:PORT or [::1]:PORT (0: any free port)")
      ->capture_default_str();
  cmd->add_flag("--stdio-handshake", args->stdio_handshake,
                "Read the token from stdin's first line, print the handshake line, serve framed requests on stdin, "
                "exit at stdin EOF");
  cmd->add_option("--token-file", args->token_file, "Read the token from FILE (mode 0600 in a 0700 directory)");
  cmd->add_option("--root", args->roots, "A directory dataset sources and targets may be under (repeatable)");
  cmd->add_option("--python", args->python, "Python interpreter for the TensorFlow probe")->capture_default_str();
  cmd->add_option("--profile", args->profile, "Profile that decides what ok means in /v1/checks (default tf-2.15-cuda-12.2)");
  cmd->add_option("--threads", args->threads, "Worker threads")->check(CLI::Range(1, 64))->capture_default_str();
  cmd->add_option("--timeout", args->timeout_s, "Seconds for reading a request, writing an answer, and an idle connection")
      ->check(CLI::Range(1, 300))
      ->capture_default_str();
  commands.add(cmd, [args, &console]() { return serve(*args, console); });
}

}  // namespace tfwsl::agent
