// Runs one Wine scenario: the MinGW tfwsl.exe under Wine, driving the wsl.exe stand-in, which relays
// --exec commands to the real tfwsl-agent through the in-process relay. Asserts the scenario's
// expect.txt against `tfwsl.exe doctor --json`, writes the text and JSON reports as samples, and
// prints the doctor's wsl.exe count and wall time (docs/performance.md records them).
//
// tfwsl_wsl_scenario --scenario DIR --wine WINE64 --tfwsl-exe EXE --standin-exe EXE --agent AGENT
//                    [--samples DIR] [--bench FILE]
#include <signal.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include <boost/process.hpp>
#include <nlohmann/json.hpp>

#include "tests/wsl_standin/relay_posix.hpp"

namespace bp = boost::process;
namespace fs = std::filesystem;

namespace {

std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string trim(std::string s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\r' || s.back() == '\t')) s.pop_back();
  std::size_t i = 0;
  while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
  return s.substr(i);
}

// key = value lines, '#' comments.
std::vector<std::pair<std::string, std::string>> read_pairs(const fs::path& p) {
  std::vector<std::pair<std::string, std::string>> pairs;
  std::ifstream in(p);
  std::string line;
  while (std::getline(in, line)) {
    line = trim(line);
    if (line.empty() || line[0] == '#') continue;
    auto eq = line.find(" = ");
    if (eq == std::string::npos) continue;
    pairs.emplace_back(trim(line.substr(0, eq)), trim(line.substr(eq + 3)));
  }
  return pairs;
}

std::string windows_path(const fs::path& p) {
  std::string s = "Z:" + fs::absolute(p).string();
  for (auto& c : s)
    if (c == '/') c = '\\';
  return s;
}

struct RunResult {
  int exit_code = -1;
  std::string out, err;
  double seconds = 0;
};

RunResult run(const std::vector<std::string>& argv, const bp::environment& env) {
  RunResult r;
  bp::ipstream out, err;
  auto start = std::chrono::steady_clock::now();
  std::future<std::string> fo, fe;
  boost::asio::io_context ios;
  bp::child child(bp::exe(argv[0]), bp::args(std::vector<std::string>(argv.begin() + 1, argv.end())),
                  bp::std_out > fo, bp::std_err > fe, bp::std_in < bp::null, env, ios);
  ios.run();
  child.wait();
  r.exit_code = child.exit_code();
  r.out = fo.get();
  r.err = fe.get();
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

std::string replace_all(std::string s, const std::string& from, const std::string& to) {
  if (from.empty()) return s;
  for (std::size_t pos = 0; (pos = s.find(from, pos)) != std::string::npos; pos += to.size()) s.replace(pos, from.size(), to);
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  ::signal(SIGPIPE, SIG_IGN);
  std::map<std::string, std::string> opt;
  for (int i = 1; i + 1 < argc; i += 2) opt[argv[i]] = argv[i + 1];
  for (const char* required : {"--scenario", "--wine", "--tfwsl-exe", "--standin-exe", "--agent"}) {
    if (!opt.count(required)) {
      std::cerr << "missing " << required << "\n";
      return 2;
    }
  }
  const fs::path scenario = opt["--scenario"];
  const std::string name = scenario.filename().string();
  const auto settings = read_pairs(scenario / "relay.txt");
  const auto expects = read_pairs(scenario / "expect.txt");

  // A work folder: the installed app (tfwsl.exe with tfwsl-agent next to it, as shipped), the
  // stand-ins, the distro's agent location and the invocation log.
  fs::path work = fs::temp_directory_path() / ("tfwsl-scenario-" + name + "-" + std::to_string(::getpid()));
  fs::remove_all(work);
  fs::create_directories(work / "app");
  fs::create_directories(work / "bin");
  fs::create_directories(work / "distro");
  fs::copy_file(opt["--tfwsl-exe"], work / "app" / "tfwsl.exe");
  fs::copy_file(opt["--agent"], work / "app" / "tfwsl-agent");
  fs::copy_file(opt["--standin-exe"], work / "bin" / "wsl.exe");
  fs::copy_file(opt["--standin-exe"], work / "bin" / "nvidia-smi.exe");
  // The scenario folder is copied so relative files resolve from the stand-in.
  fs::copy(scenario, work / "scenario", fs::copy_options::recursive);

  tfwsl::standin::RelayOptions relay_options;
  // The distro's own programs that this machine lacks, first on the relayed commands' PATH.
  fs::create_directories(work / "fakebin");
  relay_options.env["PATH"] = (work / "fakebin").string();
  auto fake_program = [&](const std::string& name, const std::string& script) {
    std::ofstream(work / "fakebin" / name) << "#!/bin/sh\n" << script;
    fs::permissions(work / "fakebin" / name, fs::perms::owner_all | fs::perms::group_read | fs::perms::others_read);
  };
  // wslpath -u 'X:\rest' as a distro with WSL's default automount root answers: /mnt/x/rest.
  fake_program("wslpath", "[ \"$1\" = -u ] || exit 1\n"
                          "drive=$(printf '%s' \"$2\" | cut -c1 | tr 'A-Z' 'a-z')\n"
                          "rest=$(printf '%s' \"$2\" | cut -c3- | tr '\\\\' '/')\n"
                          "printf '/mnt/%s%s\\n' \"$drive\" \"$rest\"\n");
  std::string agent_preinstalled;
  for (const auto& [key, value] : settings) {
    if (key == "localhost" && value == "blocked") relay_options.block_localhost = true;
    // The distro's nvidia-smi (what the agent falls back to without libnvidia-ml).
    if (key == "nvml-driver") fake_program("nvidia-smi", "echo '" + value + ", NVIDIA GeForce RTX 3080'\n");
    if (key == "agent") agent_preinstalled = value;  // "current": already deployed
  }
  fs::path agent_in_distro = work / "distro" / "tfwsl-agent";
  if (agent_preinstalled == "current") fs::copy_file(opt["--agent"], agent_in_distro);
  tfwsl::standin::Relay relay(relay_options);

  // Registry: one .reg import (each `wine reg add` would start Wine again).
  if (fs::exists(scenario / "registry.reg")) {
    auto env = boost::this_process::environment();
    auto r = run({opt["--wine"], "regedit", "/S", windows_path(scenario / "registry.reg")}, env);
    if (r.exit_code != 0) std::cerr << "regedit exited " << r.exit_code << ": " << r.err << "\n";
  }

  auto env = boost::this_process::environment();
  env["TFWSL_WSL_EXE"] = windows_path(work / "bin" / "wsl.exe");
  env["TFWSL_NVIDIA_SMI"] = windows_path(work / "bin" / "nvidia-smi.exe");
  env["TFWSL_STANDIN_SCENARIO"] = windows_path(work / "scenario");
  env["TFWSL_STANDIN_LOG"] = windows_path(work / "standin.log");
  env["TFWSL_STANDIN_RELAY_PORT"] = std::to_string(relay.port());
  env["TFWSL_AGENT_PATH"] = agent_in_distro.string();
  env["TFWSL_WSLCONFIG"] = windows_path(work / "scenario" / "wslconfig.txt");

  const std::string exe = (work / "app" / "tfwsl.exe").string();
  auto json_run = run({opt["--wine"], exe, "doctor", "--json"}, env);
  std::string log = read_text(work / "standin.log");
  int wsl_starts = 0;
  std::istringstream log_lines(log);
  std::string line;
  while (std::getline(log_lines, line)) wsl_starts += line.rfind("wsl.exe", 0) == 0;
  auto text_run = run({opt["--wine"], exe, "doctor"}, env);

  std::cout << "--- doctor --json (exit " << json_run.exit_code << ", " << json_run.seconds << " s, " << wsl_starts
            << " wsl.exe starts)\n" << json_run.out << "\n--- stderr\n" << json_run.err << "\n--- stand-in log\n" << log
            << "--- relayed\n";
  for (const auto& c : relay.commands()) std::cout << "  " << c << "\n";
  std::cout << "--- doctor (text, exit " << text_run.exit_code << ")\n" << text_run.out << "\n" << text_run.err << "\n";

  int failures = 0;
  auto fail = [&](const std::string& what) {
    std::cout << "FAILED: " << what << "\n";
    ++failures;
  };
  auto report = nlohmann::json::parse(json_run.out, nullptr, false);
  if (report.is_discarded() || !report.contains("checks")) {
    fail("doctor --json did not print a JSON report");
    report = nlohmann::json::object({{"checks", nlohmann::json::array()}});
  }
  auto find = [&](const std::string& id) -> const nlohmann::json* {
    for (const auto& c : report["checks"])
      if (c.value("id", "") == id) return &c;
    return nullptr;
  };
  for (const auto& [key, value] : expects) {
    if (key == "exit") {
      if (std::to_string(json_run.exit_code) != value) fail("exit code " + std::to_string(json_run.exit_code) + ", expected " + value);
    } else if (key == "max-wsl-starts") {
      if (wsl_starts > std::stoi(value)) fail(std::to_string(wsl_starts) + " wsl.exe starts, at most " + value + " expected");
    } else if (key.rfind("fix ", 0) == 0 || key.rfind("summary ", 0) == 0) {
      auto space = key.find(' ');
      std::string field = key.substr(0, space), id = key.substr(space + 1);
      const auto* c = find(id);
      if (!c || c->value(field, "").find(value) == std::string::npos) fail(id + " " + field + " lacks: " + value);
    } else if (key == "relayed") {
      bool seen = false;
      for (const auto& c : relay.commands()) seen = seen || c.find(value) != std::string::npos;
      if (!seen) fail("no relayed command contains: " + value);
    } else if (key == "stderr") {
      if (json_run.err.find(value) == std::string::npos) fail("stderr lacks: " + value);
    } else {
      const auto* c = find(key);
      if (!c) fail("check " + key + " missing from the report");
      else if (c->value("status", "") != value) fail(key + " is " + c->value("status", "") + ", expected " + value);
    }
  }
  if (text_run.exit_code != json_run.exit_code) fail("text and JSON runs disagree on the exit code");

  if (opt.count("--samples")) {
    fs::create_directories(opt["--samples"]);
    // The scenario folder and the agent's ephemeral port change on every run: samples show fixed
    // stand-ins so a test run does not rewrite docs/samples for nothing.
    static const std::regex port(R"(127\.0\.0\.1:[0-9]+)");
    auto clean = [&](std::string s) {
      s = replace_all(replace_all(s, windows_path(work), "Z:\\tmp\\tfwsl-scenario"), work.string(), "/tmp/tfwsl-scenario");
      return std::regex_replace(s, port, "127.0.0.1:PORT");
    };
    std::ofstream(fs::path(opt["--samples"]) / (name + ".txt")) << "$ tfwsl doctor\n" << clean(text_run.out)
                                                                 << "\n(exit " << text_run.exit_code << ")\n";
    std::ofstream(fs::path(opt["--samples"]) / (name + ".json")) << clean(json_run.out);
  }
  if (opt.count("--bench")) {
    std::ofstream(opt["--bench"], std::ios::app) << name << " wsl_starts=" << wsl_starts << " wall_s=" << json_run.seconds << "\n";
  }
  fs::remove_all(work);
  if (failures) std::cout << failures << " expectation(s) failed\n";
  return failures ? 1 : 0;
}
