#include "tests/wsl_standin/standin_world_posix.hpp"

#include <chrono>
#include <fstream>
#include <iostream>
#include <sstream>

namespace tfwsl::standin {
namespace fs = std::filesystem;
namespace bp = boost::process;

std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

namespace {

std::string trim_blanks(std::string s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\r' || s.back() == '\t')) s.pop_back();
  std::size_t i = 0;
  while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
  return s.substr(i);
}

// relay.txt's `agent = current|old`: the distro already has an agent installed, of tfwsl's
// version or an old one (a script that answers the handshake as tfwsl-agent 0.0.9 would).
void install_agent_in_distro(const std::string& which, const fs::path& agent, const fs::path& at) {
  fs::create_directories(at.parent_path());
  if (which == "current") fs::copy_file(agent, at);
  if (which != "old") return;
  std::ofstream(at) << "#!/bin/sh\nread token\n"
                       "printf '{\"agent\":\"0.0.9\",\"api\":1,\"pid\":%d,\"port\":1}\\n' $$\n"
                       "cat >/dev/null\n";
  fs::permissions(at, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec | fs::perms::others_read |
                          fs::perms::others_exec);
}

// Keys that belong to a scenario's world alone: the Wine prefix is shared by every scenario, so each
// import deletes them first, and a key one scenario set (a WSL policy) is not seen by the next.
constexpr const char* k_scenario_keys[] = {
    R"(HKEY_LOCAL_MACHINE\SOFTWARE\Policies\WSL)",
    R"(HKEY_CURRENT_USER\Software\Microsoft\Windows\CurrentVersion\Lxss)",
    R"(HKEY_LOCAL_MACHINE\SYSTEM\CurrentControlSet\Services\vmcompute)",
    R"(HKEY_LOCAL_MACHINE\SYSTEM\CurrentControlSet\Control\Class\{4d36e968-e325-11ce-bfc1-08002be10318}\0009)",
};

// Registry: one .reg import (each `wine reg add` would start Wine again): the scenario's keys
// deleted, then its file's keys set.
void import_registry(const fs::path& wine, const fs::path& reg_file) {
  if (!fs::exists(reg_file)) return;
  std::ifstream in(reg_file, std::ios::binary);
  std::stringstream scenario;
  scenario << in.rdbuf();
  std::string body = scenario.str();
  if (body.rfind("REGEDIT4", 0) == 0) body.erase(0, body.find('\n') + 1);
  const fs::path applied = reg_file.parent_path() / "registry-applied.reg";
  {
    std::ofstream out(applied, std::ios::binary | std::ios::trunc);
    out << "REGEDIT4\n\n";
    for (const char* key : k_scenario_keys) out << "[-" << key << "]\n\n";
    out << body;
  }
  auto r = run_captured({wine.string(), "regedit", "/S", windows_path(applied)}, boost::this_process::environment());
  if (r.exit_code != 0) std::cerr << "regedit exited " << r.exit_code << ": " << r.err << "\n";
}

World world_at(const fs::path& work) {
  World world;
  world.work = work;
  world.settings = read_pairs(work / "scenario" / "relay.txt");
  world.distro.root = work / "distro";
  world.agent_in_distro = world.distro.root / "usr/local/lib/tfwsl/tfwsl-agent";
  return world;
}

}  // namespace

Settings read_pairs(const fs::path& p) {
  Settings pairs;
  std::ifstream in(p);
  std::string line;
  while (std::getline(in, line)) {
    line = trim_blanks(line);
    if (line.empty() || line[0] == '#') continue;
    auto eq = line.find(" = ");
    if (eq == std::string::npos) continue;
    pairs.emplace_back(trim_blanks(line.substr(0, eq)), trim_blanks(line.substr(eq + 3)));
  }
  return pairs;
}

std::string windows_path(const fs::path& p) {
  std::string s = "Z:" + fs::absolute(p).string();
  for (auto& c : s)
    if (c == '/') c = '\\';
  return s;
}

std::string replace_all(std::string s, const std::string& from, const std::string& to) {
  if (from.empty()) return s;
  for (std::size_t pos = 0; (pos = s.find(from, pos)) != std::string::npos; pos += to.size())
    s.replace(pos, from.size(), to);
  return s;
}

RelayOptions World::relay_options() const {
  RelayOptions options;
  options.env = distro.env;
  for (const auto& [key, value] : settings)
    if (key == "localhost" && value == "blocked") options.block_localhost = true;
  return options;
}

bp::environment World::wine_environment(int relay_port) const {
  bp::environment env = boost::this_process::environment();
  env["TFWSL_WSL_EXE"] = windows_path(work / "bin" / "wsl.exe");
  env["TFWSL_NVIDIA_SMI"] = windows_path(work / "bin" / "nvidia-smi.exe");
  env["TFWSL_STANDIN_SCENARIO"] = windows_path(work / "scenario");
  env["TFWSL_STANDIN_LOG"] = windows_path(work / "standin.log");
  env["TFWSL_STANDIN_RELAY_PORT"] = std::to_string(relay_port);
  env["TFWSL_AGENT_PATH"] = agent_in_distro.string();
  env["TFWSL_STANDIN_DISTRO"] = windows_path(distro.root);  // the VM's part of the stand-in (standin_vm_windows.hpp)
  // A caller's own TFWSL_WSLCONFIG (a test pointing at its file) wins over the scenario's.
  if (env.find("TFWSL_WSLCONFIG") == env.end())
    env["TFWSL_WSLCONFIG"] = windows_path(work / "scenario" / "wslconfig.txt");
  return env;
}

World make_world(const fs::path& work, const fs::path& scenario, const WorldInputs& inputs) {
  fs::create_directories(work / "app");
  fs::create_directories(work / "bin");
  fs::copy_file(inputs.tfwsl_exe, work / "app" / "tfwsl.exe");
  fs::copy_file(inputs.agent, work / "app" / "tfwsl-agent");
  fs::copy_file(inputs.standin_exe, work / "bin" / "wsl.exe");
  fs::copy_file(inputs.standin_exe, work / "bin" / "nvidia-smi.exe");
  // The scenario folder is copied so relative files resolve from the stand-in.
  fs::copy(scenario, work / "scenario", fs::copy_options::recursive);

  World world = world_at(work);
  // The distro: a fake WSL distro of its own (fake_distro_posix.hpp) that the relayed commands,
  // the agent among them, see through its probe root, PATH and TMPDIR.
  world.distro = make_fake_distro(inputs.fake_distro, inputs.fake_gpu, world.distro.root, world.settings);
  for (const auto& [key, value] : world.settings) {
    if (key == "agent") install_agent_in_distro(value, inputs.agent, world.agent_in_distro);
    // A Windows drive mounted noexec: the shipped agent cannot run where it lies.
    if (key == "shipped" && value == "noexec")
      fs::permissions(work / "app" / "tfwsl-agent",
                      fs::perms::owner_exec | fs::perms::group_exec | fs::perms::others_exec, fs::perm_options::remove);
  }
  import_registry(inputs.wine, work / "scenario" / "registry.reg");
  return world;
}

World open_world(const fs::path& work) {
  World world = world_at(work);
  world.distro.env = fake_distro_environment(world.distro.root, world.settings);
  return world;
}

RunResult run_captured(const std::vector<std::string>& argv, const bp::environment& env) {
  RunResult r;
  auto start = std::chrono::steady_clock::now();
  std::future<std::string> fo, fe;
  boost::asio::io_context ios;
  bp::child child(bp::exe(argv[0]), bp::args(std::vector<std::string>(argv.begin() + 1, argv.end())), bp::std_out > fo,
                  bp::std_err > fe, bp::std_in < bp::null, env, ios);
  ios.run();
  child.wait();
  r.exit_code = child.exit_code();
  r.out = fo.get();
  r.err = fe.get();
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

bool wine_never_started(const RunResult& r) {
  return r.exit_code != 0 &&
         (r.err.rfind("wine client error:", 0) == 0 || r.err.find("\nwine client error:") != std::string::npos);
}

}  // namespace tfwsl::standin
