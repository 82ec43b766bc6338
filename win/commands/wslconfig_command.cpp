#include "win/commands/wslconfig_command.hpp"

#include <spdlog/spdlog.h>

#include <iostream>
#include <memory>
#include <thread>

#include "common/cli/fitted_output.hpp"
#include "common/cli/json_envelope.hpp"
#include "common/core/clock.hpp"
#include "common/core/exit_codes.hpp"
#include "common/process/process_runner.hpp"
#include "common/wslconfig/wslconfig_location.hpp"
#include "win/host/host_probe.hpp"
#include "win/platform/host_platform.hpp"
#include "win/render/change_consent.hpp"
#include "win/render/json_schema_names.hpp"
#include "win/render/wslconfig_report.hpp"
#include "win/tasks/wslconfig_account.hpp"
#include "win/tasks/wslconfig_file.hpp"
#include "win/wsl/wsl_client.hpp"

namespace tfwsl::cli {
namespace {

struct WslconfigArgs {
  std::string command;             // show, set, unset
  std::vector<std::string> items;  // KEY=VALUE (set) or KEY (unset)
  std::string file;
  std::string distro;
  bool apply = false;
  bool dry_run = false;
  bool yes = false;
  bool json = false;
};

// The environment as the console gives it; an empty value counts as unset.
wslconfig::EnvironmentLookup lookup_of(const Console& console) {
  return [&console](const std::string& name) -> std::optional<std::string> {
    if (!console.environment) return std::nullopt;
    auto value = console.environment(name);
    if (!value || value->empty()) return std::nullopt;
    return value;
  };
}

// The host's RAM and processors, from the machine's host port (a test program's may stand in for it).
wslconfig::HostShape host_shape(HostPort& machine_host) {
  wslconfig::HostShape host;
  host.ram_bytes = machine_host.system().ram_bytes;
  host.logical_processors = machine_host.logical_processors();
  return host;
}

int fail(Console& console, const WslconfigArgs& args, const std::string& message, int code = exit_code::k_failure) {
  console.err << "tfwsl wslconfig " << args.command << ": " << message << "\n";
  return code;
}

// The whole report; set/unset in text have shown their diff already (before asking).
void print(Console& console, const WslconfigArgs& args, const WslconfigReport& report) {
  if (args.json)
    console.out << with_json_envelope(to_json(report), json_schema::k_wslconfig, json_schema::k_version).dump(2)
                << "\n";
  else if (report.command == "show")
    console.out << render_text(report);
  else
    console.out << render_change_outcome(report);
  console.out.flush();
}

Result<WslconfigReport> load(const WslconfigArgs& args, Console& console, Machine& machine,
                             wslconfig::Document& document, WslconfigFile& file) {
  const auto getenv = lookup_of(console);
  std::string path = args.file;
  if (path.empty()) {
    TFWSL_TRY(located, default_wslconfig_path(getenv, machine));
    path = located;
  }
  TFWSL_TRY(read, read_wslconfig_file(path));
  file = std::move(read);
  document = wslconfig::Document::parse(file.bytes);
  WslconfigReport report;
  report.command = args.command;
  report.path = file.path;
  if (file.is_link()) report.link_target = file.target;
  report.exists = file.exists;
  report.encoding = wslconfig::to_string(document.encoding());
  report.host = host_shape(machine.host);
  return report;
}

int run_show(const WslconfigArgs& args, Console& console, Machine& machine) {
  wslconfig::Document document;
  WslconfigFile file;
  auto report = load(args, console, machine, document, file);
  if (!report) return fail(console, args, report.error().describe());
  report->values = wslconfig::effective_values(document, report->host);
  report->findings = wslconfig::lint(document, wslconfig::LintOptions{report->host.ram_bytes});
  // Which value wins: HKLM\Software\Policies\WSL (read through the registry port) over the file.
  report->overrides =
      doctor::wslconfig_overrides({file.exists, file.path, "", file.bytes}, host::read_wsl_policies(machine.registry));
  print(console, args, *report);
  return exit_code_for_findings(report->findings);
}

Result<wslconfig::EditPlan> plan_for(const WslconfigArgs& args, const wslconfig::Document& document,
                                     const WslconfigFile& file, const wslconfig::HostShape& host) {
  std::vector<wslconfig::Assignment> sets;
  std::vector<wslconfig::KeyRef> unsets;
  for (const std::string& item : args.items) {
    if (args.command == "set") {
      TFWSL_TRY(assignment, wslconfig::parse_assignment(item, document));
      sets.push_back(std::move(assignment));
    } else {
      TFWSL_TRY(ref, wslconfig::resolve_key(item, document));
      unsets.push_back(std::move(ref));
    }
  }
  return wslconfig::plan_edit(document, file.bytes, sets, unsets, wslconfig::EditOptions{host.ram_bytes});
}

// Asks once for everything the command is about to do; returns the exit code when it must stop.
std::optional<int> consent_to_change(const WslconfigArgs& args, const WslconfigReport& report, bool writes,
                                     Console& console) {
  std::string what = writes ? "write " + report.path : "";
  if (args.apply)
    what += std::string(writes ? " and " : "") + "restart WSL (wsl --shutdown stops every running distribution)";
  ConsentRequest request{"tfwsl wslconfig: " + what + "?", args.yes, false,
                         console.in_is_terminal && console.err_is_terminal};
  switch (ask_consent(request, std::cin, console.err)) {
    case Consent::granted:
    case Consent::dry_run:
      return std::nullopt;
    case Consent::declined:
      return fail(console, args, "nothing changed (not confirmed)");
    case Consent::needs_yes:
      console.err << needs_yes_message("tfwsl wslconfig " + args.command, what) << "\n";
      return exit_code::k_failure;
  }
  return exit_code::k_failure;
}

Result<wslconfig::ApplyOutcome> apply_now(const WslconfigArgs& args, const WslconfigReport& report, Console& console,
                                          Machine& machine) {
  wslconfig::ApplySettings settings;
  settings.distro = args.distro;
  auto progress = [&](const std::string& step) {
    if (!args.json) console.err << "tfwsl wslconfig: " << step << "\n";
  };
  return wslconfig::apply_and_verify(
      machine.wsl, machine.clock, [](std::chrono::milliseconds d) { std::this_thread::sleep_for(d); }, report.values,
      settings, progress);
}

// Under the lock: the file read again (another run may have changed it since the preview: then the
// same KEY=VALUE items are planned again on what it holds now, so no run's change is lost), the
// backup, the replace and the read-back.
Status write_locked(const WslconfigArgs& args, WslconfigReport& report, wslconfig::EditPlan& plan,
                    const WslconfigFile& previewed) {
  TFWSL_TRY(lock, lock_wslconfig_file(previewed));
  TFWSL_TRY(file, read_wslconfig_file(previewed.path));
  if (file.bytes != previewed.bytes) {
    const wslconfig::Document document = wslconfig::Document::parse(file.bytes);
    TFWSL_TRY(replanned, plan_for(args, document, file, report.host));
    wslconfig::FileEncoding encoding{};
    report.diff = wslconfig::line_diff(wslconfig::decode_wslconfig(file.bytes, encoding), replanned.new_bytes);
    report.changes = replanned.changes;
    report.values = wslconfig::effective_values(replanned.after, report.host);
    report.findings = replanned.findings;
    report.reread = true;
    plan = std::move(replanned);
  }
  if (!plan.changes_bytes) return {};
  TFWSL_TRY(written, write_wslconfig_file(file, plan.new_bytes));
  report.written = true;
  report.backup = written.backup;
  return {};
}

int finish_change(const WslconfigArgs& args, WslconfigReport& report, wslconfig::EditPlan& plan,
                  const WslconfigFile& file, Console& console, Machine& machine) {
  if (plan.changes_bytes)
    if (auto written = write_locked(args, report, plan, file); !written)
      return fail(console, args, written.error().describe());
  int code = exit_code_for_findings(report.findings) == exit_code::k_failure ? exit_code::k_warning : exit_code::k_ok;
  if (args.apply) {
    auto applied = apply_now(args, report, console, machine);
    if (!applied) {
      print(console, args, report);
      return fail(console, args, applied.error().describe());
    }
    report.apply = std::move(*applied);
    for (const auto& check : report.apply->checks) {
      if (check.verdict == wslconfig::Verdict::not_in_effect)
        code = exit_code::k_failure;
      else if (check.verdict == wslconfig::Verdict::unknown && code == exit_code::k_ok)
        code = exit_code::k_warning;
    }
  }
  print(console, args, report);
  return code;
}

int run_change(const WslconfigArgs& args, Console& console, Machine& machine) {
  if (args.apply && !machine.host.system().is_windows)
    return fail(console, args,
                "--apply restarts WSL with wsl.exe --shutdown from Windows: run tfwsl.exe there (inside WSL it "
                "would stop this very distribution); the file can be changed without --apply");
  wslconfig::Document document;
  WslconfigFile file;
  auto report = load(args, console, machine, document, file);
  if (!report) return fail(console, args, report.error().describe());
  auto plan = plan_for(args, document, file, report->host);
  if (!plan) return fail(console, args, plan.error().describe());
  report->changes = plan->changes;
  wslconfig::FileEncoding encoding{};
  report->diff = wslconfig::line_diff(wslconfig::decode_wslconfig(file.bytes, encoding), plan->new_bytes);
  report->values = wslconfig::effective_values(plan->after, report->host);
  report->findings = plan->findings;
  if (!args.json) console.out << render_change_preview(*report) << std::flush;
  if (args.dry_run) {
    report->dry_run = true;
    print(console, args, *report);
    return exit_code::k_ok;
  }
  if (plan->changes_bytes)
    if (auto writable = check_writable(file); !writable) return fail(console, args, writable.error().describe());
  if (plan->changes_bytes || args.apply)
    if (auto stop = consent_to_change(args, *report, plan->changes_bytes, console)) return *stop;
  return finish_change(args, *report, *plan, file, console, machine);
}

int run_wslconfig(const WslconfigArgs& args, Console& console, Machine& machine) {
  spdlog::debug("wslconfig {}: {} item(s), file '{}'", args.command, args.items.size(), args.file);
  return args.command == "show" ? run_show(args, console, machine) : run_change(args, console, machine);
}

void add_common_options(CLI::App* cmd, WslconfigArgs& args) {
  cmd->add_option("--file", args.file,
                  "The .wslconfig to use (default: %UserProfile%\\.wslconfig; required on Linux outside WSL)");
  cmd->add_flag("--json", args.json, "Print one JSON object (docs/schema/wslconfig.schema.json)");
}

void add_change_options(CLI::App* cmd, WslconfigArgs& args) {
  add_common_options(cmd, args);
  cmd->add_flag("--dry-run", args.dry_run, "Print the change as a diff and write nothing");
  cmd->add_flag("-y,--yes", args.yes, "Do not ask: agree to the change (needed when stdin is not a terminal)");
  cmd->add_flag("--apply", args.apply,
                "Then restart WSL (wsl --shutdown, wait until nothing runs, start the distro) and check from inside "
                "that memory, processors and swap took effect");
  cmd->add_option("--distro", args.distro,
                  "With --apply: the distribution to start and look into (default: WSL's default)");
}

}  // namespace

CLI::App* register_wslconfig_command(CLI::App& app, CommandTable& commands, Console& console, Machine& machine) {
  CLI::App* group = app.add_subcommand(
      "wslconfig", "Show or change %UserProfile%\\.wslconfig (the WSL 2 VM's memory, processors, swap)");
  group->require_subcommand(1);
  group->footer(help_footer("", {"tfwsl wslconfig show", "tfwsl wslconfig set memory=16GB --dry-run",
                                 "tfwsl wslconfig set memory=16GB swap=8GB --apply"}));
  auto add = [&](const std::string& name, const std::string& help, const std::string& items_help,
                 const std::vector<std::string>& examples) {
    auto args = std::make_shared<WslconfigArgs>();
    args->command = name;
    CLI::App* cmd = group->add_subcommand(name, help);
    if (items_help.empty())
      add_common_options(cmd, *args);
    else {
      cmd->add_option(name == "set" ? "assignments" : "keys", args->items, items_help)->required();
      add_change_options(cmd, *args);
    }
    cmd->footer(help_footer("", examples));
    commands.add(cmd, [args, &console, &machine] {
      const FittedOutput fitted(console, !args->json);  // text at the terminal's width; JSON as it is
      return run_wslconfig(*args, console, machine);
    });
  };
  add("show", "What WSL will use: each value from the file or WSL's default, and what is wrong in the file", "",
      {"tfwsl wslconfig show", "tfwsl wslconfig show --json", "tfwsl wslconfig show --file D:\\backup\\.wslconfig"});
  add("set", "Set keys: one line changed or added, every other byte kept, a backup beside it",
      "KEY=VALUE ... (memory=16GB, processors=8, experimental.sparseVhd=true)",
      {"tfwsl wslconfig set memory=16GB --dry-run", "tfwsl wslconfig set memory=16GB processors=8 --yes",
       "tfwsl wslconfig set memory=24GB swap=8GB --apply"});
  add("unset", "Remove keys, so WSL's defaults apply again", "KEY ... (memory, swap, experimental.sparseVhd)",
      {"tfwsl wslconfig unset memory --dry-run", "tfwsl wslconfig unset memory swap --apply --yes"});
  return group;
}

}  // namespace tfwsl::cli
