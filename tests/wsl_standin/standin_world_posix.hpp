#pragma once
// The Linux side of a Wine run against the wsl.exe stand-in, shared by the doctor scenario runner
// (scenario_runner_posix.cpp) and the session tool (session_posix.cpp): a work folder holding the
// installed app (tfwsl.exe with the shipped tfwsl-agent next to it), the stand-ins, a copy of the
// scenario and its fake distro, and the environment tfwsl.exe runs in under Wine.

#include <boost/process.hpp>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "tests/wsl_standin/fake_distro_posix.hpp"
#include "tests/wsl_standin/relay_posix.hpp"

namespace tfwsl::standin {

std::string read_text(const std::filesystem::path& p);
// key = value lines, '#' comments.
Settings read_pairs(const std::filesystem::path& p);
// Wine's view of a Linux path: Z:\... (Z: is the Linux root).
std::string windows_path(const std::filesystem::path& p);
std::string replace_all(std::string s, const std::string& from, const std::string& to);

// What the world is made of: the programs a run installs and the fake distro's parts.
struct WorldInputs {
  std::filesystem::path wine, tfwsl_exe, standin_exe, agent, fake_distro, fake_gpu;
};

// One world in a work folder. make_world() builds it (the folder must not hold one yet);
// open_world() reopens one that make_world() built before, so that several commands share the
// distro, the app folder and the stand-in's log.
struct World {
  std::filesystem::path work;
  std::filesystem::path agent_in_distro;  // /usr/local/lib/tfwsl/tfwsl-agent inside the distro
  FakeDistro distro;
  Settings settings;  // the scenario's relay.txt
  RelayOptions relay_options() const;
  // The environment tfwsl.exe runs in: the stand-ins, the relay's port, the scenario's files.
  boost::process::environment wine_environment(int relay_port) const;
};
World make_world(const std::filesystem::path& work, const std::filesystem::path& scenario, const WorldInputs& inputs);
World open_world(const std::filesystem::path& work);

struct RunResult {
  int exit_code = -1;
  std::string out, err;
  double seconds = 0;
};
// Runs argv with stdin from /dev/null and both outputs captured.
RunResult run_captured(const std::vector<std::string>& argv, const boost::process::environment& env);
// "wine client error:..." on stderr: Wine never reached its wineserver (one that was exiting as
// this run started), so the program did not run and may be started again.
bool wine_never_started(const RunResult& r);

}  // namespace tfwsl::standin
