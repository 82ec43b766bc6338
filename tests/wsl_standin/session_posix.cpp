// One tfwsl.exe command line under Wine in a persistent stand-in world (standin_world_posix.hpp):
// the wsl.exe stand-in, the relay and the real tfwsl-agent in the scenario's fake distro. The first
// run in a work folder builds the world; later runs in the same folder reuse it, so that commands
// in a row share the distro, the app folder, the scenario's files and the stand-in's log. Tests
// drive it from Python (wsl_session.py). stdin, stdout and stderr are tfwsl.exe's own; the exit
// code is its exit code. SIGINT and SIGTERM are passed on to the Wine process (a Ctrl-C test).
//
// tfwsl_wsl_session --config FILE --work DIR [--scenario DIR] [--program EXE] -- TFWSL-ARGS...
//   FILE: key = value lines (wine, tfwsl-exe, standin-exe, agent, fake-distro, fake-gpu), written
//         by CMake (tests/windows/CMakeLists.txt); --scenario is needed on the first run only.
//   EXE: what Wine runs instead of the world's app/tfwsl.exe: an installed copy (its path, or its
//        name for Wine to find on PATH/WINEPATH), as tests/release/installed_wine.py runs it.
// Each relayed command line is appended to DIR/relayed.txt.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "tests/wsl_standin/standin_world_posix.hpp"

namespace fs = std::filesystem;
namespace ts = tfwsl::standin;

namespace {

std::atomic<pid_t> g_child{0};

void forward_signal(int sig) {
  const pid_t child = g_child.load();
  if (child > 0) ::kill(child, sig);
}

struct Arguments {
  fs::path config, work, scenario;
  std::string program;
  std::vector<std::string> tfwsl_args;
};

bool parse_arguments(int argc, char** argv, Arguments& a) {
  int i = 1;
  for (; i < argc && std::string(argv[i]) != "--"; i += 2) {
    if (i + 1 >= argc) return false;
    const std::string key = argv[i], value = argv[i + 1];
    if (key == "--config")
      a.config = value;
    else if (key == "--work")
      a.work = value;
    else if (key == "--scenario")
      a.scenario = value;
    else if (key == "--program")
      a.program = value;
    else
      return false;
  }
  for (++i; i < argc; ++i) a.tfwsl_args.emplace_back(argv[i]);
  return !a.config.empty() && !a.work.empty();
}

ts::WorldInputs read_inputs(const fs::path& config) {
  std::map<std::string, std::string> c;
  for (const auto& [key, value] : ts::read_pairs(config)) c[key] = value;
  return {c["wine"], c["tfwsl-exe"], c["standin-exe"], c["agent"], c["fake-distro"], c["fake-gpu"]};
}

// Runs wine with inherited stdio, passing SIGINT/SIGTERM on; the exit code (128+N for a signal).
int run_inherited(const std::vector<std::string>& argv, const boost::process::environment& env) {
  boost::process::child child(boost::process::exe(argv[0]),
                              boost::process::args(std::vector<std::string>(argv.begin() + 1, argv.end())), env);
  g_child = child.id();
  child.wait();
  g_child = 0;
  return child.exit_code();
}

}  // namespace

int main(int argc, char** argv) {
  ::signal(SIGPIPE, SIG_IGN);
  Arguments a;
  if (!parse_arguments(argc, argv, a)) {
    std::cerr
        << "usage: tfwsl_wsl_session --config FILE --work DIR [--scenario DIR] [--program EXE] -- TFWSL-ARGS...\n";
    return 2;
  }
  const auto inputs = read_inputs(a.config);
  ts::World world;
  if (fs::exists(a.work / "app" / "tfwsl.exe")) {
    world = ts::open_world(a.work);
  } else {
    if (a.scenario.empty()) {
      std::cerr << "tfwsl_wsl_session: " << a.work << " holds no world yet: pass --scenario\n";
      return 2;
    }
    world = ts::make_world(a.work, a.scenario, inputs);
  }
  int code = 0;
  {
    ts::Relay relay(world.relay_options());
    const auto env = world.wine_environment(relay.port());
    struct sigaction action {};
    action.sa_handler = forward_signal;
    ::sigaction(SIGINT, &action, nullptr);
    ::sigaction(SIGTERM, &action, nullptr);
    const std::string program = a.program.empty() ? (a.work / "app" / "tfwsl.exe").string() : a.program;
    std::vector<std::string> command{inputs.wine.string(), program};
    command.insert(command.end(), a.tfwsl_args.begin(), a.tfwsl_args.end());
    code = run_inherited(command, env);
    std::ofstream relayed(a.work / "relayed.txt", std::ios::app);
    for (const auto& c : relay.commands()) relayed << c << "\n";
  }
  return code;
}
