#include "win/commands/profile_command.hpp"

#include <iostream>
#include <memory>

#include "common/cli/fitted_output.hpp"
#include "common/cli/json_envelope.hpp"
#include "common/core/exit_codes.hpp"
#include "common/profile/profile_loader.hpp"
#include "common/profile/profile_source.hpp"
#include "common/profile/profile_template.hpp"
#include "common/util/plural.hpp"
#include "win/render/json_schema_names.hpp"
#include "win/render/profile_render.hpp"
#include "win/tasks/profile_choice.hpp"
#include "win/tasks/profile_file_write.hpp"
#include "win/tasks/profile_machine.hpp"

namespace tfwsl::cli {
namespace {

struct InitArgs {
  std::string file = k_project_profile_file;
  bool yes = false;
  bool dry_run = false;
};

struct ValidateArgs {
  std::string file;
  bool json = false;
};

struct ShowArgs {
  std::string profile;
  bool json = false;
};

int run_init(const InitArgs& args, Console& console) {
  ProfileLoadOptions raw;
  raw.apply_builtin_defaults = false;
  auto loaded = load_profile("builtin:" + default_profile_name(), raw);
  if (!loaded.ok()) {
    console.err << "tfwsl profile init: " << issues_text(loaded.issues);
    return exit_code::k_internal;  // the shipped default always loads (tests hold it)
  }
  const std::string intro = "A tfwsl profile (docs/profiles.md), from the built-in default " + default_profile_name() +
                            ".\nCheck it with: tfwsl profile validate " + args.file +
                            "\nCompare it with this machine: tfwsl profile diff " + args.file + "\n";
  return write_with_consent(
      {"tfwsl profile init", args.file, commented_profile(*loaded.profile, intro), args.yes, args.dry_run}, console,
      std::cin);
}

int run_validate(const ValidateArgs& args, Console& console) {
  const auto loaded = load_profile(args.file);
  const int code = issues_exit_code(loaded.issues);
  if (args.json) {
    nlohmann::json body = {{"file", args.file}, {"valid", loaded.ok()}, {"issues", issues_json(loaded.issues)}};
    console.out << with_json_envelope(body, json_schema::k_profile_validate, json_schema::k_version).dump(2) << "\n";
    return code;
  }
  console.out << issues_text(loaded.issues);
  const auto errors = std::count_if(loaded.issues.begin(), loaded.issues.end(),
                                    [](const ProfileIssue& i) { return i.severity == IssueSeverity::error; });
  const auto warnings = static_cast<long>(loaded.issues.size()) - errors;
  if (errors == 0)
    console.out << args.file << ": valid" << (warnings ? " (" + plural(warnings, "warning", "warnings") + ")" : "")
                << "\n";
  else
    console.out << args.file << ": " << plural(errors, "error", "errors") << ", "
                << plural(warnings, "warning", "warnings") << "\n";
  return code;
}

int run_show(const ShowArgs& args, Console& console) {
  const auto chosen = load_chosen_profile(args.profile);
  for (const auto& ignored : chosen.choice.ignored) console.err << "tfwsl profile show: ignored " << ignored << "\n";
  const int code = issues_exit_code(chosen.loaded.issues);
  if (!chosen.loaded.profile) {
    console.err << "tfwsl profile show: " << chosen.choice.from << ":\n" << issues_text(chosen.loaded.issues);
    return exit_code::k_failure;
  }
  if (args.json) {
    auto j = with_json_envelope(show_json(*chosen.loaded.profile, chosen.choice, chosen.loaded.issues),
                                json_schema::k_profile_show, json_schema::k_version);
    console.out << j.dump(2) << "\n";
    return code;
  }
  console.out << show_text(*chosen.loaded.profile, chosen.choice);
  if (!chosen.loaded.issues.empty()) console.err << issues_text(chosen.loaded.issues);
  return code;
}

void add_machine_options(CLI::App* cmd, MachineArgs& args) {
  cmd->add_option("--distro", args.distro,
                  "The WSL distribution whose facts to read (default: WSL's default distribution)");
  cmd->add_option("--agent", args.agent,
                  "The tfwsl-agent binary (default: TFWSL_AGENT, then beside tfwsl, then ../linux/ in a build tree)");
  cmd->add_flag("-q,--quiet", args.quiet, "No status line on stderr while it waits");
}

void add_consent_options(CLI::App* cmd, bool& yes, bool& dry_run) {
  cmd->add_flag("-y,--yes", yes, "Replace an existing file without asking");
  cmd->add_flag("--dry-run", dry_run, "Print what would be written, write nothing");
}

void register_init(CLI::App* profile, CommandTable& commands, Console& console) {
  auto args = std::make_shared<InitArgs>();
  auto* cmd = profile->add_subcommand("init", "Write a commented profile from the built-in default (tfwsl.yaml here)");
  cmd->add_option("-o,--file", args->file, "The file to write")->capture_default_str();
  add_consent_options(cmd, args->yes, args->dry_run);
  cmd->footer(help_footer(
      "An existing file is replaced only with --yes, or after a yes on a terminal.",
      {"tfwsl profile init", "tfwsl profile init --dry-run", "tfwsl profile init -o team/base.yaml --yes"}));
  commands.add(cmd, [args, &console] { return run_init(*args, console); });
}

void register_validate(CLI::App* profile, CommandTable& commands, Console& console) {
  auto args = std::make_shared<ValidateArgs>();
  auto* cmd = profile->add_subcommand("validate", "Check a profile file: every error as file:line:col with its fix");
  cmd->add_option("FILE", args->file, "The profile file (or a built-in name)")->required();
  cmd->add_flag("--json", args->json, "Print the issues as one JSON object");
  cmd->footer(help_footer("Exit 0 valid, 1 warnings only, 2 errors.",
                          {"tfwsl profile validate tfwsl.yaml", "tfwsl profile validate team/base.yaml --json"}));
  commands.add(cmd, [args, &console] {
    const FittedOutput fitted(console, !args->json);  // text at the terminal's width; JSON as it is
    return run_validate(*args, console);
  });
}

void register_show(CLI::App* profile, CommandTable& commands, Console& console) {
  auto args = std::make_shared<ShowArgs>();
  auto* cmd = profile->add_subcommand(
      "show", "Print the profile in use, after extends, each value with the file and line it came from");
  cmd->add_option("PROFILE", args->profile,
                  "A profile file or built-in name (default: the one commands use, docs/profiles.md)");
  cmd->add_option("--profile", args->profile, "The same as PROFILE");
  cmd->add_flag("--json", args->json, "Print it as one JSON object");
  cmd->footer(help_footer(
      "", {"tfwsl profile show", "tfwsl profile show tfwsl.yaml", "tfwsl profile show tf-2.17-cuda-12.3 --json"}));
  commands.add(cmd, [args, &console] {
    const FittedOutput fitted(console, !args->json);  // text at the terminal's width; JSON as it is
    return run_show(*args, console);
  });
}

void register_diff(CLI::App* profile, CommandTable& commands, Console& console, Machine& machine) {
  auto args = std::make_shared<DiffArgs>();
  auto* cmd = profile->add_subcommand(
      "diff", "Compare a profile with this machine (host and distro) and list every drift with its fix");
  cmd->add_option("PROFILE", args->profile,
                  "A profile file or built-in name (default: the one commands use, docs/profiles.md)");
  cmd->add_option("--profile", args->profile, "The same as PROFILE");
  add_machine_options(cmd, args->machine);
  cmd->add_flag("--json", args->json, "Print the drifts as one JSON object; no status line");
  cmd->footer(help_footer(
      "Exit 0 no drift, 1 drifts, 2 the distro could not be reached or the profile has errors.",
      {"tfwsl profile diff", "tfwsl profile diff team/base.yaml --distro Ubuntu-22.04", "tfwsl profile diff --json"}));
  commands.add(cmd, [args, &console, &machine] {
    const FittedOutput fitted(console, !args->json);  // text at the terminal's width; JSON as it is
    return run_profile_diff(*args, console, machine);
  });
}

void register_export(CLI::App* profile, CommandTable& commands, Console& console, Machine& machine) {
  auto args = std::make_shared<ExportArgs>();
  auto* cmd = profile->add_subcommand("export", "Write a profile that describes this machine (stdout, or --file)");
  add_machine_options(cmd, args->machine);
  cmd->add_option("--name", args->name, "The profile's name")->capture_default_str();
  cmd->add_option("-o,--file", args->file, "Write it to this file instead of standard output");
  cmd->add_option("--base", args->base,
                  "A profile file or built-in name the export extends, for what the machine does not show (a "
                  "TensorFlow not installed yet)")
      ->type_name("PROFILE");
  add_consent_options(cmd, args->yes, args->dry_run);
  cmd->footer(help_footer("`tfwsl profile diff` of the exported file on the same machine finds no drift.",
                          {"tfwsl profile export", "tfwsl profile export --distro Ubuntu-22.04 -o machine.yaml",
                           "tfwsl profile export --base tf-2.15-cuda-12.2 -o lab.yaml",
                           "tfwsl profile export --name lab-pc-3 -o lab.yaml --yes"}));
  commands.add(cmd, [args, &console, &machine] { return run_profile_export(*args, console, machine); });
}

}  // namespace

void register_profile_command(CLI::App& app, CommandTable& commands, Console& console, Machine& machine) {
  auto* profile =
      app.add_subcommand("profile", "Team profiles: init, validate, show, diff against this machine, export it");
  profile->require_subcommand(1);
  profile->footer(
      help_footer("Which profile: --profile, else tfwsl.yaml in this folder or above, else your default profile, "
                  "else the built-in default (docs/profiles.md).",
                  {"tfwsl profile init", "tfwsl profile show", "tfwsl profile diff --help"}));
  register_init(profile, commands, console);
  register_validate(profile, commands, console);
  register_show(profile, commands, console);
  register_diff(profile, commands, console, machine);
  register_export(profile, commands, console, machine);
}

}  // namespace tfwsl::cli
