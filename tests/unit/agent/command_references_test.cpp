// Texts that tell a person to run `tfwsl VERB` or `tfwsl-agent VERB` name a command that exists:
// the fixes of the judge, the doctor, the .wslconfig lint, the profile loader and the signature
// base, and the commands in docs/, README.md and profiles/ (backticked or on a command line of a
// fenced block). The registered commands are read from the two CLIs themselves.
// In tests/unit/agent because it needs tfwsl-agent's command registry, which only Linux builds.
#include <catch2/catch.hpp>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "common/diagnose/signature_base.hpp"
#include "common/judge/assess.hpp"
#include "common/profile/profile_loader.hpp"
#include "linux/app/command_registry.hpp"
#include "tests/support/agent_machine_run.hpp"
#include "tests/support/test_environment.hpp"
#include "win/app/command_registry.hpp"
#include "win/app/system_machine.hpp"
#include "win/doctor/doctor_checks.hpp"
#include "win/profile/profile_drift.hpp"

using namespace tfwsl;

namespace {

// "tfwsl doctor", "tfwsl-agent dataset", ...: what each program registers.
std::set<std::string> registered_commands() {
  std::ostringstream sink;
  Console console{sink, sink, false};
  std::set<std::string> out;
  CLI::App tfwsl_app("tfwsl"), agent_app("tfwsl-agent");
  CommandTable tfwsl_table, agent_table;
  cli::SystemMachine system;
  cli::Machine machine = system.machine();
  cli::register_commands(
      tfwsl_app, tfwsl_table, console, machine, [](const std::vector<std::string>&) { return 0; },
      [](const std::vector<std::string>&) { return cli::Invocation{}; });
  test::AgentTestMachine agent_machine;
  agent::register_commands(agent_app, agent_table, console, agent_machine.machine);
  for (const auto* sub : tfwsl_app.get_subcommands([](const CLI::App*) { return true; }))
    out.insert("tfwsl " + sub->get_name());
  for (const auto* sub : agent_app.get_subcommands([](const CLI::App*) { return true; }))
    out.insert("tfwsl-agent " + sub->get_name());
  // "tfwsl help COMMAND" is "tfwsl COMMAND --help" (run_command_line), on both programs.
  out.insert("tfwsl help");
  out.insert("tfwsl-agent help");
  return out;
}

// Every "tfwsl VERB" / "tfwsl-agent VERB" in `text` whose VERB is not registered.
std::vector<std::string> unknown_commands(const std::string& text, const std::set<std::string>& known) {
  static const std::regex k_command(R"((?:^|[\s'"`(])(tfwsl(?:-agent)?) ([a-z][a-z0-9-]*))");
  std::vector<std::string> out;
  for (std::sregex_iterator it(text.begin(), text.end(), k_command), end; it != end; ++it) {
    std::string command = (*it)[1].str() + " " + (*it)[2].str();
    if (!known.count(command)) out.push_back(command + "  in: " + text.substr(0, 200));
  }
  return out;
}

void add_fixes(const Report& report, std::vector<std::string>& texts) {
  for (const auto& c : report.checks) {
    texts.push_back(c.fix);
    // The command `doctor --fix` runs is a tfwsl command, and the fix's words name it.
    if (!c.fix_command.empty()) {
      texts.push_back("tfwsl " + c.fix_command.front());
      CHECK(c.fix.find("tfwsl " + c.fix_command.front()) != std::string::npos);
    }
  }
}

// The fixes the judge and the doctor give for broken machines.
std::vector<std::string> verdict_fixes() {
  std::vector<std::string> texts;
  auto policy = judge::check_policy_for_profile("");
  REQUIRE(policy);
  agent_api::LinuxFacts broken;
  broken.wsl.kind = agent_api::WslKind::wsl2;
  broken.driver.packages = {"nvidia-driver-535"};
  broken.stack.toolkits = {{"/usr/local/cuda-13.0", "13.0.48"}};
  broken.stack.cudnn_found = true;
  broken.stack.cudnn_version = 91900;
  broken.stack.python_version = "3.13.1";
  broken.tf.ran = true;
  broken.system.disk_free_bytes = 1;
  broken.system.data_paths = {{"/mnt/c/data", "/mnt/c", "9p", true}};
  add_fixes(judge::assess(broken, *policy), texts);
  broken.wsl.kind = agent_api::WslKind::wsl1;
  broken.timed_out = {"wsl", "gpu", "tensorflow"};
  add_fixes(judge::assess(broken, *policy), texts);
  add_fixes(judge::assess(agent_api::LinuxFacts{}, *policy), texts);
  agent_api::LinuxFacts small_vm;
  small_vm.system.mem_total_kb = 1000;  // .wslconfig's memory= not in effect: the judge's fix names wsl --shutdown
  add_fixes(judge::assess(small_vm, *policy, judge::WindowsMemory{16ull << 30, {}, "C:\\Users\\me\\.wslconfig"}),
            texts);

  doctor::WslFacts wsl;
  texts.push_back(doctor::check_wsl_installed(wsl).fix);
  texts.push_back(doctor::check_agent(agent_client::AgentLink::none, "", "gone", true).fix);
  for (auto link : {agent_client::AgentLink::stdio_fallback, agent_client::AgentLink::stdio_impostor})
    for (bool forwarded : {true, false}) texts.push_back(doctor::check_localhost_forwarding(link, "x", forwarded).fix);
  std::optional<std::uint64_t> memory;
  for (const char* bytes : {"\xff\xfe[\0w\0s\0l\0\x32\0]\0", "[wsl2]\nmemory=\xff\n", "[wsl2] memory=48GB\n"}) {
    doctor::WslconfigFacts file{true, "C:\\Users\\me\\.wslconfig", "", bytes};
    for (const auto& c : doctor::check_wslconfig(file, {}, memory)) texts.push_back(c.fix);
  }
  // tfwsl profile diff: every drift of a machine that differs in every key it compares.
  auto team = load_valid_profile("tf-2.15-cuda-12.2", {.overrides = {"wsl.memory=16GB", "wsl.processors=8",
                                                                     "wsl.swap=4GB", "gpu.driver=\"546.80\""}});
  REQUIRE(team);
  ProfileMachineFacts machine;
  machine.host = {"Ubuntu-24.04", "", "537.58", "C:\\Users\\me\\.wslconfig", std::string("[wsl2]\nmemory=8GB\n"), ""};
  machine.linux = broken;
  machine.linux->tf.installed = false;
  const auto diff = diff_profile(*team, machine);
  CHECK(diff.drifts.size() >= 8);
  for (const auto& d : diff.drifts) texts.push_back(d.fix);
  return texts;
}

// A document's backticked commands and the command lines of its fenced blocks.
std::vector<std::string> document_commands(const std::string& text) {
  std::vector<std::string> out;
  static const std::regex k_backticked(R"(`(tfwsl[^`]*)`)");
  for (std::sregex_iterator it(text.begin(), text.end(), k_backticked), end; it != end; ++it)
    out.push_back((*it)[1].str());
  std::istringstream lines(text);
  std::string line;
  bool fenced = false;
  while (std::getline(lines, line)) {
    if (line.rfind("```", 0) == 0)
      fenced = !fenced;
    else if (fenced)
      out.push_back(line);
  }
  return out;
}

}  // namespace

TEST_CASE("every fix that names a tfwsl command names one that exists", "[commands]") {
  const auto known = registered_commands();
  REQUIRE(known.count("tfwsl doctor"));
  REQUIRE(known.count("tfwsl-agent dataset"));
  CHECK_FALSE(unknown_commands("copy it with tfwsl dataset push <path>", known).empty());  // the scan finds one
  CHECK(unknown_commands("copy it with tfwsl data push <path>", known).empty());

  std::vector<std::string> texts = verdict_fixes();
  const auto& base = diagnose::builtin_signature_base();
  REQUIRE(base);
  for (const auto& s : base->signatures()) {
    texts.push_back(s.fix);
    texts.push_back(s.fix_windows);
  }
  auto missing = load_valid_profile("/nonexistent/team.yaml");
  REQUIRE_FALSE(missing);
  texts.push_back(missing.error().describe());
  test::TempDir dir;
  test::write_file(dir.path() / "list.yaml", "- a\n- b\n");
  auto not_a_map = load_valid_profile((dir.path() / "list.yaml").string());
  REQUIRE_FALSE(not_a_map);
  texts.push_back(not_a_map.error().describe());

  std::vector<std::string> unknown;
  for (const auto& t : texts)
    for (auto& u : unknown_commands(t, known)) unknown.push_back(u);
  INFO([&] {
    std::string all;
    for (const auto& u : unknown) all += u + "\n";
    return all;
  }());
  CHECK(unknown.empty());
}

TEST_CASE("the docs, the README and the profiles name only commands that exist", "[commands]") {
  const auto known = registered_commands();
  const std::filesystem::path source = TFWSL_SOURCE_DIR;
  std::vector<std::filesystem::path> files{source / "README.md"};
  for (const char* folder : {"docs", "profiles"})
    for (const auto& entry : std::filesystem::directory_iterator(source / folder))
      if (entry.path().extension() == ".md" || entry.path().extension() == ".yaml") files.push_back(entry.path());
  REQUIRE(files.size() > 5);
  std::vector<std::string> unknown;
  for (const auto& file : files)
    for (const auto& command : document_commands(test::read_file(file)))
      for (auto& u : unknown_commands(command, known)) unknown.push_back(file.filename().string() + ": " + u);
  INFO([&] {
    std::string all;
    for (const auto& u : unknown) all += u + "\n";
    return all;
  }());
  CHECK(unknown.empty());
}
