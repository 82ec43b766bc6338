// Runs one Wine scenario: the MinGW tfwsl.exe under Wine, driving the wsl.exe stand-in, which relays
// --exec commands to the real tfwsl-agent through the in-process relay; the agent observes the
// scenario's fake distro (fake_distro_posix.hpp), not this machine. Asserts the scenario's
// expect.txt against `tfwsl.exe doctor --json`, that the doctor runs changed nothing (the fake
// distro and the app folder byte-identical after both runs, no changing command in the stand-in's
// log), writes the text and JSON reports as samples, and prints the doctor's wsl.exe count and wall
// time (docs/performance.md records them).
//
// tfwsl_wsl_scenario --scenario DIR --wine WINE64 --tfwsl-exe EXE --standin-exe EXE --agent AGENT
//                    --fake-distro DIR --fake-gpu DIR [--samples DIR] [--bench FILE]
#include <signal.h>
#include <unistd.h>

#include <boost/process.hpp>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "tests/wsl_standin/fake_distro_posix.hpp"
#include "tests/wsl_standin/relay_posix.hpp"
#include "tests/wsl_standin/standin_world_posix.hpp"

namespace bp = boost::process;
namespace fs = std::filesystem;

namespace {

using tfwsl::standin::read_pairs;
using tfwsl::standin::read_text;
using tfwsl::standin::replace_all;
using tfwsl::standin::RunResult;
using tfwsl::standin::windows_path;

// A Wine run, started again when Wine never reached its wineserver (the program did not run).
RunResult run(const std::vector<std::string>& argv, const bp::environment& env) {
  auto r = tfwsl::standin::run_captured(argv, env);
  for (int again = 0; again < 2 && tfwsl::standin::wine_never_started(r); ++again)
    r = tfwsl::standin::run_captured(argv, env);
  return r;
}

// What a doctor run may not touch: the distro and the installed app (tfwsl.exe, the shipped agent).
tfwsl::standin::TreeSnapshot snapshot_machine(const fs::path& work) {
  auto snapshot = tfwsl::standin::snapshot_tree(work / "distro");
  for (const auto& [path, value] : tfwsl::standin::snapshot_tree(work / "app")) snapshot["app/" + path] = value;
  return snapshot;
}

struct Outcome {
  RunResult json_run, text_run;
  int wsl_starts = 0;
  std::vector<std::string> relayed;
};

using Fail = std::function<void(const std::string&)>;

void check_expectations(const std::vector<std::pair<std::string, std::string>>& expects, const Outcome& o,
                        const Fail& fail) {
  auto report = nlohmann::json::parse(o.json_run.out, nullptr, false);
  if (report.is_discarded() || !report.contains("checks")) {
    fail("doctor --json did not print a JSON report");
    report = nlohmann::json::object({{"checks", nlohmann::json::array()}});
  }
  auto find = [&](const std::string& id) -> const nlohmann::json* {
    for (const auto& c : report["checks"])
      if (c.value("id", "") == id) return &c;
    return nullptr;
  };
  std::set<std::string> named;
  std::string others;
  for (const auto& [key, value] : expects) {
    if (key == "exit") {
      if (std::to_string(o.json_run.exit_code) != value)
        fail("exit code " + std::to_string(o.json_run.exit_code) + ", expected " + value);
    } else if (key == "max-wsl-starts") {
      if (o.wsl_starts > std::stoi(value))
        fail(std::to_string(o.wsl_starts) + " wsl.exe starts, at most " + value + " expected");
    } else if (key.rfind("fix ", 0) == 0 || key.rfind("summary ", 0) == 0) {
      auto space = key.find(' ');
      std::string field = key.substr(0, space), id = key.substr(space + 1);
      const auto* c = find(id);
      if (!c || c->value(field, "").find(value) == std::string::npos) fail(id + " " + field + " lacks: " + value);
    } else if (key == "relayed") {
      bool seen = false;
      for (const auto& c : o.relayed) seen = seen || c.find(value) != std::string::npos;
      if (!seen) fail("no relayed command contains: " + value);
    } else if (key == "stderr") {
      if (o.json_run.err.find(value) == std::string::npos) fail("stderr lacks: " + value);
    } else if (key.rfind("blocked_by ", 0) == 0) {
      const auto* c = find(key.substr(11));
      if (!c || c->value("blocked_by", "") != value) fail(key.substr(11) + " is not folded under " + value);
    } else if (key == "issues" || key == "fix_first") {
      const auto& summary = report.value("summary", nlohmann::json::object());
      const auto fix_first = summary.value("fix_first", nlohmann::json());  // null when nothing is to fix
      const auto got = key == "issues"         ? summary.value("issues", nlohmann::json()).dump()
                       : fix_first.is_object() ? fix_first.value("id", "")
                                               : fix_first.dump();
      if (got != value) fail("summary." + key + " is " + got + ", expected " + value);
    } else if (key == "text" || key == "text-lacks") {
      const bool has = o.text_run.out.find(value) != std::string::npos;
      if (has != (key == "text")) fail("the text report " + std::string(has ? "has" : "lacks") + ": " + value);
    } else if (key == "others") {
      others = value;
    } else {
      named.insert(key);
      const auto* c = find(key);
      if (!c)
        fail("check " + key + " missing from the report");
      else if (c->value("status", "") != value)
        fail(key + " is " + c->value("status", "") + ", expected " + value);
    }
  }
  // `others = ok`: the scenario's own fault and nothing else.
  if (!others.empty())
    for (const auto& c : report["checks"])
      if (!named.count(c.value("id", "")) && c.value("status", "") != others)
        fail(c.value("id", "") + " is " + c.value("status", "") + " (" + c.value("summary", "") + "), expected " +
             others);
  if (o.text_run.exit_code != o.json_run.exit_code) fail("text and JSON runs disagree on the exit code");
}

// Doctor is read-only: nothing it ran could change the distro, and nothing did.
void check_read_only(const tfwsl::standin::TreeSnapshot& before, const tfwsl::standin::TreeSnapshot& after,
                     const std::string& log, const Fail& fail) {
  for (const auto& line : tfwsl::standin::changing_commands(log))
    fail("doctor ran a command that changes the machine: " + line);
  for (const auto& difference : tfwsl::standin::tree_differences(before, after))
    fail("doctor changed the machine: " + difference);
}

// The scenario folder and the agent's ephemeral port change on every run: samples show fixed
// stand-ins so a test run does not rewrite docs/samples for nothing. The fake distro's root shows
// as "/", as the distro itself sees it.
void write_samples(const fs::path& dir, const std::string& name, const fs::path& work, const Outcome& o) {
  fs::create_directories(dir);
  static const std::regex port(R"(127\.0\.0\.1:[0-9]+)");
  auto clean = [&](std::string s) {
    s = replace_all(s, (work / "distro").string() + "/", "/");
    // The Windows path as text and as a JSON string (backslashes doubled).
    s = replace_all(s, replace_all(windows_path(work), "\\", "\\\\"), "Z:\\\\tmp\\\\tfwsl-scenario");
    s = replace_all(replace_all(s, windows_path(work), "Z:\\tmp\\tfwsl-scenario"), work.string(),
                    "/tmp/tfwsl-scenario");
    return std::regex_replace(s, port, "127.0.0.1:PORT");
  };
  std::ofstream(dir / (name + ".txt")) << "$ tfwsl doctor\n"
                                       << clean(o.text_run.out) << "\n(exit " << o.text_run.exit_code << ")\n";
  std::ofstream(dir / (name + ".json")) << clean(o.json_run.out);
}

int count_wsl_starts(const std::string& log) {
  int starts = 0;
  std::istringstream lines(log);
  std::string line;
  while (std::getline(lines, line)) starts += line.rfind("wsl.exe", 0) == 0;
  return starts;
}

}  // namespace

int main(int argc, char** argv) {
  ::signal(SIGPIPE, SIG_IGN);
  std::map<std::string, std::string> opt;
  for (int i = 1; i + 1 < argc; i += 2) opt[argv[i]] = argv[i + 1];
  for (const char* required :
       {"--scenario", "--wine", "--tfwsl-exe", "--standin-exe", "--agent", "--fake-distro", "--fake-gpu"}) {
    if (!opt.count(required)) {
      std::cerr << "missing " << required << "\n";
      return 2;
    }
  }
  const fs::path scenario = opt["--scenario"];
  const std::string name = scenario.filename().string();
  const auto expects = read_pairs(scenario / "expect.txt");

  // A work folder: the installed app (tfwsl.exe with tfwsl-agent next to it, as shipped), the
  // stand-ins, the fake distro and the invocation log (standin_world_posix.hpp).
  fs::path work = fs::temp_directory_path() / ("tfwsl-scenario-" + name + "-" + std::to_string(::getpid()));
  fs::remove_all(work);
  const tfwsl::standin::WorldInputs inputs{opt["--wine"],  opt["--tfwsl-exe"],   opt["--standin-exe"],
                                           opt["--agent"], opt["--fake-distro"], opt["--fake-gpu"]};
  const auto world = tfwsl::standin::make_world(work, scenario, inputs);
  tfwsl::standin::Relay relay(world.relay_options());
  const bp::environment env = world.wine_environment(relay.port());

  const std::string exe = (work / "app" / "tfwsl.exe").string();
  const auto before = snapshot_machine(work);
  Outcome o;
  o.json_run = run({opt["--wine"], exe, "doctor", "--json"}, env);
  o.wsl_starts = count_wsl_starts(read_text(work / "standin.log"));
  o.text_run = run({opt["--wine"], exe, "doctor"}, env);
  o.relayed = relay.commands();
  const auto after = snapshot_machine(work);
  const std::string log = read_text(work / "standin.log");

  std::cout << "--- doctor --json (exit " << o.json_run.exit_code << ", " << o.json_run.seconds << " s, "
            << o.wsl_starts << " wsl.exe starts)\n"
            << o.json_run.out << "\n--- stderr\n"
            << o.json_run.err << "\n--- stand-in log (both runs)\n"
            << log << "--- relayed\n";
  for (const auto& c : o.relayed) std::cout << "  " << c << "\n";
  std::cout << "--- doctor (text, exit " << o.text_run.exit_code << ")\n"
            << o.text_run.out << "\n"
            << o.text_run.err << "\n";

  int failures = 0;
  Fail fail = [&](const std::string& what) {
    std::cout << "FAILED: " << what << "\n";
    ++failures;
  };
  check_expectations(expects, o, fail);
  check_read_only(before, after, log, fail);
  if (opt.count("--samples")) write_samples(opt["--samples"], name, work, o);
  if (opt.count("--bench")) {
    std::ofstream(opt["--bench"], std::ios::app)
        << name << " wsl_starts=" << o.wsl_starts << " wall_s=" << o.json_run.seconds << "\n";
  }
  fs::remove_all(work);
  if (failures) std::cout << failures << " expectation(s) failed\n";
  return failures ? 1 : 0;
}
