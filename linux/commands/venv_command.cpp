#include "linux/commands/venv_command.hpp"

#include <fmt/format.h>
#include <pwd.h>
#include <unistd.h>

#include <cstdlib>
#include <memory>
#include <nlohmann/json.hpp>
#include <ostream>

#include "common/cli/json_envelope.hpp"
#include "common/core/exit_codes.hpp"
#include "linux/agent/agent_schema_names.hpp"
#include "linux/venv/logged_process.hpp"
#include "linux/venv/venv_requirements.hpp"
#include "linux/venv/venv_verify.hpp"

namespace tfwsl::agent {
namespace {

struct InstallArguments {
  std::string venv;
  std::vector<std::string> requirement_files;
  std::vector<std::string> packages;
  bool check = false;
  bool json = false;
  int timeout_s = 3600;
};

struct VerifyArguments {
  std::string venv;
  std::string project;
  std::string module;
  std::string script;
  std::vector<std::string> env;
  bool json = false;
  int timeout_s = 300;
};

// With --json the failure is JSON too ({"error": ...} in the command's envelope), so a caller
// that reads the answer is never left with "exited 2 without its JSON answer".
int venv_failure(Console& console, const std::string& command, const std::string& message, bool json = false) {
  if (json) {
    const auto schema = command == "install" ? json_schema::k_venv_install : json_schema::k_venv_verify;
    console.out << with_json_envelope({{"error", message}}, schema, json_schema::k_version)
                       .dump(2, ' ', false, nlohmann::json::error_handler_t::replace)
                << "\n";
  }
  console.err << "tfwsl-agent venv " << command << ": " << message << "\n";
  return exit_code::k_failure;
}

std::filesystem::path cache_folder() {
  const char* home = std::getenv("HOME");
  std::string base = home && *home ? home : "";
  if (base.empty())
    if (const passwd* pw = ::getpwuid(::getuid())) base = pw->pw_dir;
  return std::filesystem::path(base) / ".cache/tfwsl";
}

nlohmann::json unmet_json(const std::vector<venv::UnmetRequirement>& unmet) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& u : unmet)
    out.push_back(
        {{"requirement", u.requirement}, {"source", u.source}, {"reason", u.reason}, {"pip_decides", u.pip_decides}});
  return out;
}

std::string unmet_text(const std::vector<venv::UnmetRequirement>& unmet) {
  std::string out;
  for (const auto& u : unmet) out += fmt::format("  {} ({}): {}\n", u.requirement, u.source, u.reason);
  return out;
}

void print_install_json(Console& console, nlohmann::json body) {
  console.out << with_json_envelope(std::move(body), json_schema::k_venv_install, json_schema::k_version).dump(2)
              << "\n";
}

std::vector<std::string> pip_install_argv(const std::filesystem::path& venv, const std::vector<std::string>& files,
                                          const std::vector<std::string>& packages) {
  std::vector<std::string> argv = {(venv / "bin/python").string(), "-m",        "pip", "install",
                                   "--disable-pip-version-check",  "--no-input"};
  for (const auto& f : files) argv.insert(argv.end(), {"-r", f});
  argv.insert(argv.end(), packages.begin(), packages.end());
  return argv;
}

// pip ran: the re-check decides. Exit 0 only when pip succeeded and nothing is unmet now.
int report_pip_run(const InstallArguments& args, const venv::RequirementsCheck& before, const venv::LoggedRun& run,
                   const std::filesystem::path& log, const std::filesystem::path& venv, Console& console) {
  auto after = venv::check_venv_requirements(venv, args.requirement_files, args.packages);
  // What only pip can decide was pip's to decide: after a successful pip, only the rest counts.
  const auto still_unmet = after ? after->decided_unmet() : std::vector<venv::UnmetRequirement>{};
  const bool met = after && still_unmet.empty();
  const bool ok = run.exit_code == 0 && !run.timed_out && !run.interrupted && met;
  std::string problem;
  if (run.timed_out)
    problem = fmt::format("pip ran past --timeout-s {} and was stopped", args.timeout_s);
  else if (run.interrupted)
    problem = "interrupted: pip was stopped";
  else if (run.exit_code != 0)
    problem = fmt::format("pip exited with status {}", run.exit_code);
  else if (!after)
    problem = "the re-check failed: " + after.error().describe();
  else if (!met)
    problem = "pip succeeded but requirements are still unmet";
  if (args.json) {
    nlohmann::json body = {{"changed", true},
                           {"pip_ran", true},
                           {"requirements", before.requirements},
                           {"unmet", unmet_json(before.unmet)},
                           {"log", log.string()},
                           {"pip_exit_code", run.exit_code},
                           {"unmet_after", unmet_json(still_unmet)}};
    if (!ok) {
      body["error"] = problem;
      body["pip_tail"] = run.tail;  // pip's last lines: the reason a failed install gives
    }
    print_install_json(console, body);
  } else if (ok) {
    console.out << fmt::format("requirements met: {} (pip installed {} unmet; log: {})\n", before.requirements,
                               before.unmet.size(), log.string());
  }
  if (ok) return exit_code::k_ok;
  // pip failed: everything unmet is named, what only pip could decide too.
  const auto& named = run.exit_code == 0 ? still_unmet : after ? after->unmet : before.unmet;
  std::string message = fmt::format("{} (log: {})\n", problem, log.string());
  if (!named.empty()) message += "still unmet:\n" + unmet_text(named);
  message += "pip's last lines:\n";
  for (const auto& line : run.tail) message += "  " + line + "\n";
  console.err << "tfwsl-agent venv install: " << message;
  return run.interrupted ? exit_code::k_interrupted : exit_code::k_failure;
}

int run_install(InstallArguments args, Console& console) {
  const std::filesystem::path venv = venv::expand_home(args.venv);
  if (auto is_venv = venv::require_venv(venv); !is_venv)
    return venv_failure(console, "install", is_venv.error().message, args.json);
  for (auto& f : args.requirement_files) f = venv::expand_home(f);
  auto before = venv::check_venv_requirements(venv, args.requirement_files, args.packages);
  if (!before) return venv_failure(console, "install", before.error().describe(), args.json);
  if (before->unmet.empty() || args.check) {
    if (args.json)
      print_install_json(console, {{"changed", false},
                                   {"pip_ran", false},
                                   {"requirements", before->requirements},
                                   {"unmet", unmet_json(before->unmet)}});
    else if (before->unmet.empty())
      console.out << fmt::format("requirements met: {}\n", before->requirements);
    else
      console.out << fmt::format("unmet: {} of {} requirement(s)\n{}", before->unmet.size(), before->requirements,
                                 unmet_text(before->unmet));
    return before->unmet.empty() ? exit_code::k_ok : exit_code::k_warning;
  }
  auto log = venv::create_log_file(cache_folder(), "pip");
  if (!log) return venv_failure(console, "install", log.error().describe(), args.json);
  console.err << fmt::format("{} of {} requirement(s) unmet: running pip install (log: {})\n", before->unmet.size(),
                             before->requirements, log->string());
  auto run = venv::run_logged(pip_install_argv(venv, args.requirement_files, args.packages), *log,
                              std::chrono::seconds(args.timeout_s));
  if (!run)
    return venv_failure(console, "install", run.error().describe() + fmt::format(" (log: {})", log->string()),
                        args.json);
  return report_pip_run(args, *before, *run, *log, venv, console);
}

nlohmann::json verify_json(const venv::VerifyResult& r) {
  nlohmann::json checks = nlohmann::json::array();
  for (const auto& c : r.checks) {
    nlohmann::json one = {{"id", c.id}, {"status", to_string(c.status)}, {"summary", c.summary}};
    if (!c.fix.empty()) one["fix"] = c.fix;
    checks.push_back(one);
  }
  nlohmann::json import = nlohmann::json();
  if (r.import) import = {{"module", r.import->module}, {"ok", r.import->ok}, { "output", r.import->output }};
  return {{"tensorflow", {{"version", r.tf.version}, {"gpus", r.tf.gpus}}},
          {"checks", checks},
          {"import", import},
          {"ok", r.ok}};
}

// What failed and the judge's fix, one item each.
std::string verify_failures(const venv::VerifyResult& r) {
  std::string out;
  for (const auto& c : r.checks)
    if (c.is_problem())
      out += fmt::format("  {}: {}{}\n", c.id, c.summary, c.fix.empty() ? "" : " (fix: " + c.fix + ")");
  if (r.import && !r.import->ok)
    out += fmt::format("  import {} failed: {}\n", r.import->module,
                       r.import->output.empty() ? "no output" : r.import->output.back());
  return out;
}

int run_verify(const VerifyArguments& args, Console& console, AgentMachine& machine) {
  venv::VerifySettings settings;
  settings.processes = &machine.processes;
  settings.venv = venv::expand_home(args.venv);
  if (auto is_venv = venv::require_venv(settings.venv); !is_venv)
    return venv_failure(console, "verify", is_venv.error().message, args.json);
  settings.project = venv::expand_home(args.project);
  settings.module = args.module;
  settings.script = args.script;
  settings.timeout = std::chrono::seconds(args.timeout_s);
  for (const auto& e : args.env) {
    auto kv = venv::parse_env_assignment(e);
    if (!kv) return venv_failure(console, "verify", kv.error().message, args.json);
    settings.env[kv->first] = kv->second;
  }
  auto result = venv::verify_venv(settings);
  if (!result) return venv_failure(console, "verify", result.error().describe(), args.json);
  if (args.json) {
    console.out << with_json_envelope(verify_json(*result), json_schema::k_venv_verify, json_schema::k_version).dump(2)
                << "\n";
  } else {
    for (const auto& c : result->checks)
      console.out << fmt::format("{:<5} {:<13} {}\n", to_string(c.status), c.id, c.summary);
    if (result->import)
      console.out << fmt::format("{:<5} {:<13} {}\n", result->import->ok ? "ok" : "fail", "import",
                                 result->import->ok
                                     ? "import " + result->import->module
                                     : "import " + result->import->module + ": " +
                                           (result->import->output.empty() ? "" : result->import->output.back()));
  }
  if (result->ok) return exit_code::k_ok;
  return venv_failure(console, "verify", "failed:\n" + verify_failures(*result));
}

void register_install(CLI::App& venv, CommandTable& commands, Console& console) {
  auto args = std::make_shared<InstallArguments>();
  auto* cmd = venv.add_subcommand("install",
                                  "Install requirements files and specs into a venv with pip, only when the venv's own "
                                  "files show something unmet (a met venv starts no process)");
  cmd->add_option("--venv", args->venv, "The venv (PATH/bin/python and PATH/pyvenv.cfg; ~/ is $HOME)")->required();
  cmd->add_option("-r,--requirement", args->requirement_files,
                  "A pip requirements file (repeatable; its -r/-c includes are followed)");
  cmd->add_option("--package", args->packages, "A requirement spec, e.g. 'numpy>=1.26' (repeatable)");
  cmd->add_flag("--check", args->check, "Report what is unmet and run nothing (exit 1 when something is)");
  cmd->add_flag("--json", args->json, "Print the result as one JSON object");
  cmd->add_option("--timeout-s", args->timeout_s, "Seconds pip may run before it is stopped")
      ->check(CLI::Range(1, 7 * 24 * 3600))
      ->capture_default_str();
  cmd->footer(
      help_footer("Exit status: 0 met (or installed and met), 1 --check found unmet requirements, 2 pip failed, "
                  "requirements are still unmet, or an input is wrong. pip's output goes to ~/.cache/tfwsl/pip-*.log.",
                  {"tfwsl-agent venv install --venv ~/.venvs/tf-2.15 -r ~/proj/requirements.txt",
                   "tfwsl-agent venv install --venv ~/.venvs/tf-2.15 --package 'pyyaml>=6' --check --json"}));
  commands.add(cmd, [args, &console]() { return run_install(*args, console); });
}

void register_verify(CLI::App& venv, CommandTable& commands, Console& console, AgentMachine& machine) {
  auto args = std::make_shared<VerifyArguments>();
  auto* cmd = venv.add_subcommand("verify",
                                  "Check that the venv's TensorFlow runs on the GPU (the tf.* checks) and that the "
                                  "project's module imports");
  cmd->add_option("--venv", args->venv, "The venv (~/ is $HOME)")->required();
  cmd->add_option("--project", args->project,
                  "The project folder: the import runs there, and nothing is written into it")
      ->required();
  cmd->add_option("--module", args->module, "A module to import in the project folder, e.g. train");
  cmd->add_option("--script", args->script,
                  "Or a script to run by its path in the project folder, as an import runs it "
                  "(__name__ is not \"__main__\"), e.g. train-model.py");
  cmd->add_option("--env", args->env, "NAME=VALUE for the probe and the import (repeatable)");
  cmd->add_flag("--json", args->json, "Print the result as one JSON object");
  cmd->add_option("--timeout-s", args->timeout_s, "Seconds the TensorFlow probe, and then the import, may take")
      ->check(CLI::Range(1, 3600))
      ->capture_default_str();
  cmd->footer(help_footer(
      "Exit status: 0 all ok, 2 a check or the import failed (each named, with its fix), or an input is wrong.",
      {"tfwsl-agent venv verify --venv ~/.venvs/tf-2.15 --project ~/proj --module train",
       "tfwsl-agent venv verify --venv ~/.venvs/tf-2.15 --project ~/proj --env TF_CPP_MIN_LOG_LEVEL=1 --json"}));
  commands.add(cmd, [args, &console, &machine]() { return run_verify(*args, console, machine); });
}

}  // namespace

void register_venv_command(CLI::App& app, CommandTable& commands, Console& console, AgentMachine& machine) {
  CLI::App* venv = app.add_subcommand("venv",
                                      "A project's requirements in a provisioned venv, and its TensorFlow GPU check "
                                      "(the distro half of 'tfwsl migrate'; run as the user, not root)");
  venv->require_subcommand(1);
  venv->footer(help_footer("", {"tfwsl-agent venv install --help", "tfwsl-agent venv verify --help"}));
  register_install(*venv, commands, console);
  register_verify(*venv, commands, console, machine);
}

}  // namespace tfwsl::agent
