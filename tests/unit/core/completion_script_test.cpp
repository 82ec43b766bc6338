// The completion scripts come from the parser's own command table: every command and every option
// of tfwsl appears in both, under the command that takes it.
#include "win/render/completion_script.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <sstream>

#include "tests/support/captured_run.hpp"
#include "tests/support/cli_machine_run.hpp"
#include "win/app/cli_app.hpp"
#include "win/app/command_registry.hpp"
#include "win/app/system_machine.hpp"

using namespace tfwsl;

namespace {

// tfwsl's command tree, as run_cli builds it.
struct TfwslTree {
  std::ostringstream sink;
  Console console{sink, sink, false};
  CLI::App app{"tfwsl", "tfwsl"};
  GlobalOptions globals;
  CommandTable table;
  TfwslTree() {
    add_global_options(app, globals);
    cli::SystemMachine system;
    cli::Machine machine = system.machine();
    cli::register_commands(
        app, table, console, machine, [](const std::vector<std::string>&) { return 0; },
        [](const std::vector<std::string>&) { return cli::Invocation{}; });
  }
};

void every_command_and_option(const CLI::App& app, const std::string& script, const std::string& path) {
  for (const CLI::App* sub : const_cast<CLI::App&>(app).get_subcommands([](const CLI::App*) { return true; })) {
    const std::string sub_path = path.empty() ? sub->get_name() : path + " " + sub->get_name();
    INFO(sub_path);
    const bool listed = script.find("\"" + sub_path + "\"") != std::string::npos ||  // bash: "wslconfig set")
                        script.find("'" + sub_path + "'") != std::string::npos;      // PowerShell: 'wslconfig set'
    CHECK(listed);
    for (const CLI::Option* opt : sub->get_options())
      for (const auto& l : opt->get_lnames()) {
        INFO("--" << l);
        CHECK(script.find("--" + l) != std::string::npos);
      }
    every_command_and_option(*sub, script, sub_path);
  }
}

}  // namespace

TEST_CASE("completion: every command and option of tfwsl is in the bash and the PowerShell script") {
  TfwslTree tree;
  const auto entries = completion_entries(tree.app);
  REQUIRE(entries.size() > 15);
  every_command_and_option(tree.app, bash_completion_script(tree.app, "tfwsl"), "");
  every_command_and_option(tree.app, powershell_completion_script(tree.app, "tfwsl"), "");
}

TEST_CASE("completion: a command's words are its subcommands and its own options, with the global ones") {
  TfwslTree tree;
  for (const auto& e : completion_entries(tree.app)) {
    if (e.path == "wslconfig") CHECK(std::find(e.words.begin(), e.words.end(), "set") != e.words.end());
    if (e.path == "doctor") {
      CHECK(std::find(e.words.begin(), e.words.end(), "--fix") != e.words.end());
      CHECK(std::find(e.words.begin(), e.words.end(), "--log-level") != e.words.end());
      CHECK(std::find(e.words.begin(), e.words.end(), "--apply") == e.words.end());
    }
  }
}

TEST_CASE("tfwsl completion bash prints the script, an unknown shell is a usage error") {
  auto r = test::run_captured(test::tfwsl_cli, {"completion", "bash"});
  CHECK(r.code == 0);
  CHECK(r.out.find("complete -o default -F _tfwsl_complete tfwsl") != std::string::npos);
  r = test::run_captured(test::tfwsl_cli, {"completion", "tcsh"});
  CHECK(r.code == 2);
  r = test::run_captured(test::tfwsl_cli, {"completion"});
  CHECK(r.code == 2);
  CHECK(r.err.find("give a shell") != std::string::npos);
}

namespace {

const ValueCompletion* value_of(const std::vector<CompletionEntry>& entries, const std::string& path,
                                const std::string& spelling) {
  for (const auto& e : entries)
    if (e.path == path)
      for (const auto& v : e.values)
        if (std::find(v.spellings.begin(), v.spellings.end(), spelling) != v.spellings.end()) return &v;
  return nullptr;
}

}  // namespace

TEST_CASE("completion: an option's closed set, and the machine's lists, are what follows it") {
  TfwslTree tree;
  const auto entries = completion_entries(tree.app);
  const auto* color = value_of(entries, "doctor", "--color");
  REQUIRE(color != nullptr);
  CHECK(color->choices == std::vector<std::string>{"auto", "always", "never"});
  const auto* distro = value_of(entries, "doctor", "--distro");
  REQUIRE(distro != nullptr);
  CHECK(distro->list == "distros");
  const auto* profile = value_of(entries, "provision", "--profile");
  REQUIRE(profile != nullptr);
  CHECK(profile->list == "profiles");
  CHECK(value_of(entries, "doctor", "--fix") == nullptr);  // a flag takes no value
  for (const auto& e : entries)
    if (e.path == "completion")
      for (const char* shell : {"bash", "zsh", "fish", "powershell"}) {
        INFO(shell);
        CHECK(std::find(e.words.begin(), e.words.end(), shell) != e.words.end());
      }
}

TEST_CASE("completion: zsh loads the bash function through bashcompinit, fish completes tfwsl and tfwsl.exe") {
  TfwslTree tree;
  const std::string zsh = zsh_completion_script(tree.app, "tfwsl");
  CHECK(zsh.find("bashcompinit") != std::string::npos);
  CHECK(zsh.find("complete -o default -F _tfwsl_complete tfwsl") != std::string::npos);
  const std::string fish = fish_completion_script(tree.app, "tfwsl");
  CHECK(fish.find("complete -c tfwsl -a '(__tfwsl_complete)'") != std::string::npos);
  CHECK(fish.find("complete -c tfwsl.exe -a '(__tfwsl_complete)'") != std::string::npos);
  CHECK(powershell_completion_script(tree.app, "tfwsl").find("'provision|--profile' = 'profiles'") !=
        std::string::npos);
}

TEST_CASE("tfwsl completion --list profiles prints the shipped profiles' names, one a line") {
  auto r = test::run_captured(test::tfwsl_cli, {"completion", "--list", "profiles"});
  CHECK(r.code == 0);
  CHECK(r.out.find("tf-2.15-cuda-12.2\n") != std::string::npos);
  r = test::run_captured(test::tfwsl_cli, {"completion", "bash", "--list", "profiles"});
  CHECK(r.code == 2);
}
