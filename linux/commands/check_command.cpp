#include "linux/commands/check_command.hpp"

#include <spdlog/spdlog.h>

#include <memory>
#include <ostream>

#include "common/check/check_table.hpp"
#include "common/cli/json_envelope.hpp"
#include "common/core/exit_codes.hpp"
#include "common/judge/assess.hpp"
#include "common/profile/profile_source.hpp"
#include "linux/agent/agent_schema_names.hpp"
#include "linux/checks/linux_checks.hpp"

namespace tfwsl::agent {

namespace {

struct CheckArguments {
  bool json = false;
  bool verbose = false;
  std::string python = "python3";
  std::vector<std::string> data_paths;
  int tf_timeout_s = 120;
  std::string profile;
};

}  // namespace

void register_check_command(CLI::App& app, CommandTable& commands, Console& console, AgentMachine& machine) {
  auto args = std::make_shared<CheckArguments>();
  auto* cmd = app.add_subcommand("check",
                                 "Check this Linux machine's GPU, CUDA, Python and TensorFlow stack "
                                 "(the Linux half of 'tfwsl doctor')");
  cmd->add_flag("--json", args->json, "Print the report as JSON");
  cmd->add_flag("-v,--verbose", args->verbose, "Show the facts behind each line");
  cmd->add_option("--python", args->python,
                  "Python interpreter for the Python and TensorFlow checks (e.g. a venv's bin/python)")
      ->capture_default_str();
  cmd->add_option("--data", args->data_paths,
                  "A project or dataset path to check for a slow Windows mount (repeatable)");
  cmd->add_option("--tf-timeout", args->tf_timeout_s, "Seconds the TensorFlow probe may take")
      ->check(CLI::Range(1, 3600))
      ->capture_default_str();
  cmd->add_option("--profile", args->profile,
                  "Profile (built-in name or YAML file) that decides what ok means; default " + default_profile_name());
  cmd->footer(help_footer("", {"tfwsl-agent check", "tfwsl-agent check -v --python ~/.venvs/tf-2.15/bin/python",
                               "tfwsl-agent check --json --data /mnt/c/Users/me/project"}));
  commands.add(cmd, [args, &console, &machine]() {
    auto policy = judge::check_policy_for_profile(args->profile);
    if (!policy) {
      console.err << "tfwsl-agent check: " << policy.error().describe() << "\n";
      return exit_code::k_failure;
    }
    auto env = linux_checks::system_probe_environment(machine.shared_processes());
    env.python = args->python;
    env.data_paths = args->data_paths;
    env.tf_timeout = std::chrono::seconds(args->tf_timeout_s);
    auto report = judge::assess(linux_checks::gather_facts(env), *policy);
    fold_report(report, check_dependencies());  // one root cause, not its echoes
    if (args->json) {
      console.out << with_json_envelope(to_json(report), json_schema::k_check, json_schema::k_version).dump(2) << "\n";
    } else {
      console.out << render_text(report, RenderOptions{args->verbose, console.color});
    }
    return report.exit_code();
  });
}

}  // namespace tfwsl::agent
