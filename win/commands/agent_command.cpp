// tfwsl agent start | status | stop: thin; the scripts and their answers are win/agent_service.
#include "win/commands/agent_command.hpp"

#include <memory>
#include <string>
#include <vector>

#include "common/agent_api/api_types.hpp"
#include "common/agent_api/challenge.hpp"
#include "common/cli/fitted_output.hpp"
#include "common/core/exit_codes.hpp"
#include "common/util/shell_quote.hpp"
#include "common/util/text_wrap.hpp"
#include "common/util/visible_text.hpp"
#include "win/agent_client/agent_bridge.hpp"
#include "win/agent_client/agent_transport.hpp"
#include "win/agent_client/wsl_agent_host.hpp"
#include "win/agent_service/agent_service.hpp"
#include "win/render/agent_try_line.hpp"
#include "win/render/agent_version_words.hpp"
#include "win/tasks/agent_connection.hpp"
#include "win/tasks/agent_consent.hpp"
#include "win/tasks/agent_upgrade.hpp"
#include "win/tasks/default_distro.hpp"

namespace tfwsl::cli {
namespace {

struct AgentArgs {
  std::string distro;
  std::string agent;
  int port = 0;
  std::vector<std::string> roots;
  bool dry_run = false;
  bool yes = false;
};

struct Place {
  Place(const AgentArgs& args, Machine& machine)
      : windows(machine.host.system().is_windows), connection({args.distro, args.agent, windows}, machine) {
    // Without --distro, the default one by name (wsl -l -v), so what start prints says where it runs.
    if (windows) distro = distro_or_default(connection.wsl(), args.distro);
    if (windows)
      shell = std::make_unique<agent_service::WslDistroShell>(connection.wsl(), distro);
    else
      shell = std::make_unique<agent_service::LocalDistroShell>(machine.processes);
    agent_path =
        wsl::process_environment_variable(agent_client::k_agent_path_env).value_or(agent_client::k_default_agent_path);
  }
  bool windows;
  std::string distro;  // on Windows: --distro, else the default one by name (empty when wsl.exe cannot tell)
  AgentConnection connection;
  std::unique_ptr<agent_service::DistroShell> shell;
  std::string agent_path;
};

int fail(Console& console, const char* verb, const Error& error) {
  console.err << "tfwsl agent " << verb << ": " << error.describe() << "\n";
  return exit_code::k_failure;
}

void print_running(Console& console, const agent_service::ServiceStatus& s, const Place& place) {
  const TryLineSettings try_line{place.windows, place.distro, s.token_file, s.port};
  const FittedOutput fitted(console, true, {agent_try_command(try_line)});
  console.out << "tfwsl-agent " << s.running_version << " runs " << place.shell->where() << ": pid " << s.pid
              << ", http://127.0.0.1:" << s.port << "\n"
              << "token: " << s.token_file << " (mode " << (s.token_mode.empty() ? "?" : s.token_mode)
              << ", readable by its owner only)\n"
              << agent_try_line(try_line) << "\n";
}

AgentInstall install_request(Place& place, const AgentArgs& args, std::string shipped) {
  return {std::move(shipped), place.agent_path, "tfwsl agent start", args.yes, args.dry_run};
}

// Installs the agent of this version when the distro has none (or another), with consent.
Status ensure_installed(Place& place, const agent_service::ServiceStatus& status, const AgentArgs& args,
                        Console& console) {
  if (status.installed && status.installed_version == TFWSL_VERSION) return {};
  TFWSL_TRY(shipped, place.connection.local_agent_binary());
  return install_agent_with_consent(*place.shell, status, install_request(place, args, shipped), console);
}

// A persistent agent older than this tfwsl (tfwsl was upgraded since it started): with consent, it
// is stopped, this version installed, and started below with this command's settings.
Status stop_older_agent(Place& place, agent_service::ServiceStatus& status, const AgentArgs& args, Console& console) {
  TFWSL_TRY(shipped, place.connection.local_agent_binary());
  const bool install = !(status.installed && status.installed_version == TFWSL_VERSION);
  const std::string what = "stop tfwsl-agent " + visible_text(status.running_version) + " (pid " +
                           std::to_string(status.pid) + ") " + place.shell->where() + " and start tfwsl-agent " +
                           TFWSL_VERSION + " in its place" +
                           (install ? ", installed from " + shipped + " as " + place.agent_path : "");
  if (args.dry_run) {
    console.out << "would " << what << "\n";
  } else {
    TFWSL_TRY_STATUS(confirm_change(console, args.yes, "tfwsl agent start will " + what + ".", "upgrade the agent"));
    TFWSL_TRY(stopped, agent_service::stop_service(*place.shell, place.agent_path));
    (void)stopped;  // gone either way: it stopped now, or it had already ended
    console.err << "stopped tfwsl-agent " << visible_text(status.running_version) << " " << place.shell->where()
                << "\n";
  }
  status.running = false;
  if (!install) return {};
  // Asked once, above: the install needs no second question.
  AgentInstall request = install_request(place, args, shipped);
  request.yes = true;
  return install_agent_with_consent(*place.shell, status, request, console);
}

int run_start(const AgentArgs& args, Console& console, Machine& machine) {
  Place place(args, machine);
  auto status = agent_service::read_service_status(*place.shell, place.agent_path);
  if (!status) return fail(console, "start", status.error());
  if (status->running && !agent_is_older(status->running_version)) {
    console.err << "already running\n";
    print_running(console, *status, place);
    return exit_code::k_ok;
  }
  auto installed = status->running ? stop_older_agent(place, *status, args, console)
                                   : ensure_installed(place, *status, args, console);
  if (!installed) return fail(console, "start", installed.error());
  if (args.dry_run) {
    const std::string state_dir = status->state_dir.empty() ? "~/.config/tfwsl" : status->state_dir;
    std::vector<std::string> serve{place.agent_path, "serve",
                                   "--listen",       "127.0.0.1:" + std::to_string(args.port),
                                   "--token-file",   state_dir + "/agent.token"};
    for (const auto& root : args.roots) serve.insert(serve.end(), {"--root", root});
    const std::string command = bash_command(serve);  // continued between its arguments when long
    print_text(console,
               "would start (bash, in the distro): " + command +
                   "\n  the token file 0600, in a 0700 folder; data roots: " +
                   (args.roots.empty() ? "the home folder" : "the --root folders") + "\n",
               {{Shell::bash, command}});
    return exit_code::k_ok;
  }
  agent_service::StartSettings settings{place.agent_path, args.port, args.roots, agent_client::make_token()};
  auto started = agent_service::start_service(*place.shell, settings);
  if (!started) return fail(console, "start", started.error());
  print_running(console, *started, place);
  return exit_code::k_ok;
}

// Does the agent on that port know the token (the challenge), and answer /v1/info?
std::string ask_running_agent(Place& place, const agent_service::ServiceStatus& status) {
  auto token = agent_service::read_service_token(*place.shell);
  if (!token) return token.error().message;
  agent_client::HttpAgentTransport http(status.port, *token);
  const std::string nonce = agent_client::make_token();
  auto proof = http.challenge(nonce, std::chrono::seconds(5));
  if (!proof) return proof.error().message;
  if (!agent_api::verify_challenge_proof(*token, nonce, *proof)) return "another program answers on that port";
  auto info = http.request("GET", agent_api::route::k_info, nullptr, std::chrono::seconds(10));
  if (!info) return info.error().message;
  if (info->status != 200) return "GET /v1/info answered HTTP " + std::to_string(info->status);
  return {};
}

int run_status(const AgentArgs& args, Console& console, Machine& machine) {
  Place place(args, machine);
  auto status = agent_service::read_service_status(*place.shell, place.agent_path);
  if (!status) return fail(console, "status", status.error());
  const std::string older =
      agent_is_older(status->installed_version)
          ? " (older than this tfwsl, " + std::string(TFWSL_VERSION) + ": tfwsl agent start upgrades it)"
          : "";
  console.out << "installed: "
              << (status->installed
                      ? "tfwsl-agent " + visible_text(status->installed_version) + " at " + status->agent_path + older
                      : "no (" + status->agent_path + " is absent; tfwsl agent start installs it)")
              << "\n";
  if (!status->running) {
    console.out << "running:   no (tfwsl agent start)\n";
    return exit_code::k_warning;
  }
  print_running(console, *status, place);
  if (auto problem = ask_running_agent(place, *status); !problem.empty()) {
    console.out << "answers:   no (" << problem << ")\n";
    return exit_code::k_failure;
  }
  console.out << "answers:   yes (challenge proof and /v1/info)\n";
  return exit_code::k_ok;
}

int run_stop(const AgentArgs& args, Console& console, Machine& machine) {
  Place place(args, machine);
  auto stopped = agent_service::stop_service(*place.shell, place.agent_path);
  if (!stopped) return fail(console, "stop", stopped.error());
  console.out << (*stopped ? "stopped the agent " : "no agent was running ") << place.shell->where() << "\n";
  return exit_code::k_ok;
}

void add_place_options(CLI::App* cmd, AgentArgs& args) {
  cmd->add_option("--distro", args.distro, "Distribution (default: WSL's default distribution)");
}

}  // namespace

void register_agent_command(CLI::App& app, CommandTable& commands, Console& console, Machine& machine) {
  auto* agent = app.add_subcommand("agent", "The persistent agent for editors and scripts: start, status, stop");
  agent->require_subcommand(1);
  agent->footer(help_footer("", {"tfwsl agent start", "tfwsl agent status", "tfwsl agent stop"}));
  auto args = std::make_shared<AgentArgs>();

  auto* start = agent->add_subcommand("start", "Install (asks first) and start the persistent agent in the distro");
  add_place_options(start, *args);
  start->add_option("--port", args->port, "Loopback port (default 0: any free one)")->check(CLI::Range(0, 65535));
  start->add_option("--root", args->roots, "A folder dataset jobs may use (repeatable; default: the home folder)");
  start->add_flag("--dry-run", args->dry_run, "Say what would be installed and started; change nothing");
  start->add_flag("-y,--yes", args->yes, "Install without asking");
  start->add_option("--agent", args->agent, "The tfwsl-agent binary to install (as for tfwsl doctor)");
  start->footer(
      help_footer("", {"tfwsl agent start --dry-run", "tfwsl agent start --yes --port 8765 --root /mnt/d/data"}));
  commands.add(start, [args, &console, &machine] {
    const FittedOutput fitted(console, true);  // every line at the terminal's width
    return run_start(*args, console, machine);
  });

  auto* status = agent->add_subcommand("status", "Whether the persistent agent is installed, runs and answers");
  add_place_options(status, *args);
  status->footer(
      help_footer("Exit 0 running and answering, 1 not running, 2 running but not answering.", {"tfwsl agent status"}));
  commands.add(status, [args, &console, &machine] {
    const FittedOutput fitted(console, true);  // every line at the terminal's width
    return run_status(*args, console, machine);
  });

  auto* stop = agent->add_subcommand("stop", "Stop the persistent agent (its token file stays)");
  add_place_options(stop, *args);
  stop->footer(help_footer("", {"tfwsl agent stop"}));
  commands.add(stop, [args, &console, &machine] {
    const FittedOutput fitted(console, true);  // every line at the terminal's width
    return run_stop(*args, console, machine);
  });
}

}  // namespace tfwsl::cli
