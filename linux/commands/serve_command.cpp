#include "linux/commands/serve_command.hpp"

#include <poll.h>
#include <signal.h>
#include <spdlog/spdlog.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <iostream>
#include <memory>
#include <thread>

#include "common/agent_api/handshake.hpp"
#include "common/agent_api/token.hpp"
#include "common/core/exit_codes.hpp"
#include "common/judge/check_policy.hpp"
#include "common/process/stoppable_process_runner.hpp"
#include "common/profile/profile_source.hpp"
#include "common/util/ascii.hpp"
#include "linux/agent/http_server.hpp"
#include "linux/agent/routes.hpp"
#include "linux/agent/stdio_channel.hpp"
#include "linux/agent/stop_watcher.hpp"
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
  int refresh_interval_s = 5;
  std::string profile;
};

// As Jupyter treats its runtime files: a regular file (not a link) of mode 0600, in a 0700 directory, both ours.
Result<std::string> read_token_file(const std::string& path) {
  struct stat file {
  }, dir{};
  if (lstat(path.c_str(), &file) != 0)
    return make_error(ErrorCode::not_found, "token file '" + path + "': " + std::strerror(errno));
  if (!S_ISREG(file.st_mode))
    return make_error(ErrorCode::permission,
                      "token file '" + path + "' is not a regular file (a symlink?): refusing to start");
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
  const std::string token(trim(*text));
  if (!agent_api::is_valid_token(token))
    return make_error(ErrorCode::invalid_input, "token file '" + path + "' must hold 32 to 256 hex digits");
  return token;
}

int fail(Console& console, const Error& error) {
  console.err << "tfwsl-agent serve: " << error.message << "\n";
  return exit_code::k_failure;
}

int serve_until_stopped(const ServeArguments& args, Console& console, const Router& router, HttpServer& server,
                        std::unique_ptr<AgentContext>& context, int port, const std::string& host);

int serve(const ServeArguments& args, Console& console, AgentMachine& machine) {
  if (args.stdio_handshake == !args.token_file.empty())
    return fail(console, Error{ErrorCode::invalid_input,
                               "give exactly one of --stdio-handshake (token on stdin) or --token-file FILE",
                               {},
                               {}});
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
      return fail(console,
                  Error{ErrorCode::invalid_input, "--root '" + root + "' is not an existing directory", {}, {}});
    context->roots.push_back(canonical);
  }
  context->probe_env =
      linux_checks::system_probe_environment(machine.stoppable_processes(context->probe_stop.get_token()));
  context->probe_env.python = args.python;
  auto policy = judge::check_policy_for_profile(args.profile);
  if (!policy) return fail(console, policy.error());
  context->policy = *policy;

  Router router;
  register_all_routes(router, *context);
  // At most half the workers wait for a probe run at once: the rest stay free for other requests.
  context->facts.set_limits(
      {std::chrono::seconds(args.refresh_interval_s), static_cast<std::size_t>(std::max(1, args.threads / 2))});
  ServerLimits limits;
  limits.threads = args.threads;
  limits.body_timeout_s = limits.write_timeout_s = args.timeout_s;
  HttpServer server(router, context->token, limits);
  auto port = server.bind(*address);
  if (!port) return fail(console, port.error());
  context->port = *port;
  return serve_until_stopped(args, console, router, server, context, *port, address->host);
}

// Serves HTTP on its own thread, and the stdio frames (stdio mode) on this one, until stdin EOF or
// SIGINT/SIGTERM. Every stop path is remembered before anyone waits for it (HttpServer::stop,
// StopWatcher), so a stop that comes early is never lost, and every thread is joined.
int serve_until_stopped(const ServeArguments& args, Console& console, const Router& router, HttpServer& server,
                        std::unique_ptr<AgentContext>& context, int port, const std::string& host) {
  // SIGPIPE ignored: a closed socket or stdout is an error value, not a death. SIGINT and SIGTERM
  // blocked before any thread starts, and read from the watcher's signalfd.
  ::signal(SIGPIPE, SIG_IGN);
  block_stop_signals();
  auto* facts = &context->facts;
  StopWatcher watcher(
      args.stdio_handshake ? STDIN_FILENO : -1, [facts] { facts->shutdown(); },
      [facts, &server] {
        facts->shutdown();
        server.stop();
      });
  std::thread http([&server] { server.run(); });
  // Logged before the handshake line: whoever reads the line finds the log already saying so.
  spdlog::info("tfwsl-agent {} serving on {}:{} (pid {})", context->version, host, port, getpid());
  agent_api::HandshakeLine hello{context->version, agent_api::k_api_version, static_cast<long>(getpid()), port};
  console.out << agent_api::format_handshake_line(hello) << "\n";
  console.out.flush();

  int code = exit_code::k_ok;
  if (args.stdio_handshake) {
    auto status = serve_stdio_frames(router, STDIN_FILENO, STDOUT_FILENO, watcher.stopped_fd());
    if (!status) {
      spdlog::error("stdio channel: {}", status.error().describe());
      code = exit_code::k_failure;
    } else if (watcher.signal_number() == 0) {
      spdlog::info("stdin closed: stopping");
    }
  } else {
    pollfd stopped{watcher.stopped_fd(), POLLIN, 0};
    while (!(stopped.revents & POLLIN)) (void)::poll(&stopped, 1, -1);  // until a signal (EINTR: again)
  }
  // Waiting requests are released first (the probe cache answers them), then the server stops:
  // the workers finish what they are on, queued connections are closed, nothing waits for a probe.
  context->facts.shutdown();
  context->probe_stop.request_stop();  // a probe run in flight ends now: its children are killed
  server.stop();
  watcher.request();
  http.join();
  // The context goes before we return: its cache joins the probe run, which the stop above ended
  // (and which is bounded anyway: every child a probe runs dies at its limit), so no thread
  // outlives what it uses.
  context.reset();
  return code;
}

}  // namespace

void register_serve_command(CLI::App& app, CommandTable& commands, Console& console, AgentMachine& machine) {
  auto args = std::make_shared<ServeArguments>();
  auto* cmd = app.add_subcommand("serve", "Serve the token-protected loopback API for the tfwsl CLI");
  cmd->add_option("--listen", args->listen,
                  "Loopback address: 127.0.0.1:PORT, localhost:PORT or [::1]:PORT (0: any free port)")
      ->capture_default_str();
  cmd->add_flag("--stdio-handshake", args->stdio_handshake,
                "Read the token from stdin's first line, print the handshake line, serve framed requests on stdin, "
                "exit at stdin EOF");
  cmd->add_option("--token-file", args->token_file, "Read the token from FILE (mode 0600 in a 0700 directory)");
  cmd->add_option("--root", args->roots, "A directory dataset sources and targets may be under (repeatable)");
  cmd->add_option("--python", args->python, "Python interpreter for the TensorFlow probe")->capture_default_str();
  cmd->add_option("--profile", args->profile,
                  "Profile that decides what ok means in /v1/checks (default " + default_profile_name() + ")");
  cmd->add_option("--threads", args->threads, "Worker threads")->check(CLI::Range(1, 64))->capture_default_str();
  cmd->add_option("--timeout", args->timeout_s,
                  "Seconds for a request body to arrive after its head, and for the client to take the answer "
                  "(the head itself has 3 s from the connection)")
      ->check(CLI::Range(1, 300))
      ->capture_default_str();
  cmd->add_option("--refresh-interval", args->refresh_interval_s,
                  "Seconds after a probe run during which ?refresh=1 answers that run's report (0: no limit)")
      ->check(CLI::Range(0, 3600))
      ->capture_default_str();
  cmd->footer(help_footer("", {"tfwsl-agent serve --listen 127.0.0.1:0 --token-file ~/.config/tfwsl/token",
                               "tfwsl-agent serve --stdio-handshake   (how tfwsl starts it: the token on stdin)",
                               "tfwsl-agent serve --listen [::1]:8765 --token-file token --root /mnt/c/data"}));
  commands.add(cmd, [args, &console, &machine]() { return serve(*args, console, machine); });
}

}  // namespace tfwsl::agent
