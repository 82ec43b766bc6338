#include "win/commands/dsc_command.hpp"

#include <fmt/format.h>

#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "common/core/exit_codes.hpp"
#include "win/fleet/dsc_document.hpp"
#include "win/fleet/dsc_manifest.hpp"
#include "win/fleet/dsc_profile_resource.hpp"
#include "win/fleet/dsc_wslconfig_resource.hpp"
#include "win/fleet/tfwsl_invoker.hpp"
#include "win/tasks/profile_choice.hpp"

namespace tfwsl::cli {
namespace {

using nlohmann::json;

struct DscArgs {
  std::string operation;  // get, test, set, export, manifest, schema
  std::string resource;
  std::string input;  // the desired state; empty: read stdin
  bool input_given = false;
};

// DSC reads a resource's stderr line by line (log_stderr_line, lib/dsc-lib/src/dscresources/
// command_resource.rs at PowerShell/DSC 861df432): a JSON object with one key "error", "warn",
// "info", "debug" or "trace" is logged at that level; anything else only at trace, where nobody
// sees it. And an exit code the manifest describes makes DSC print only that description, so this
// line is where the message reaches the admin.
int dsc_failure(Console& console, const std::string& message) {
  console.err << json{{"error", "tfwsl dsc: " + message}}.dump() << "\n";
  return exit_code::k_failure;
}

Result<json> read_desired_state(const DscArgs& args) {
  const char* source = args.input_given ? "--input" : "stdin";
  if (args.input_given) return dsc::parse_dsc_document(args.input, source);
  TFWSL_TRY(text, dsc::read_dsc_document(std::cin, source));
  return dsc::parse_dsc_document(text, source);
}

// The state, then (test) the differing properties: DSC's "stateAndDiff" JSON lines.
int print_dsc_state(Console& console, const json& state, const std::vector<std::string>* differing) {
  console.out << state.dump() << "\n";
  if (differing) console.out << json(*differing).dump() << "\n";
  console.out.flush();
  return exit_code::k_ok;
}

// Export: each instance as one JSON line, as DSC reads an export's stdout.
int run_dsc_export(bool wslconfig, const json& filter, TfwslInvoker& tfwsl, Console& console) {
  auto instances = wslconfig ? dsc::wslconfig_export(filter, tfwsl)
                             : dsc::profile_export(filter, choose_profile(profile_search("")).name_or_path, tfwsl);
  if (!instances) return dsc_failure(console, instances.error().describe());
  for (const json& instance : *instances) console.out << instance.dump() << "\n";
  console.out.flush();
  return exit_code::k_ok;
}

int run_dsc_operation(const DscArgs& args, const json& desired, TfwslInvoker& tfwsl, Console& console) {
  const bool wslconfig = args.resource == dsc::k_wslconfig_type;
  if (args.operation == "export") return run_dsc_export(wslconfig, desired, tfwsl, console);
  if (args.operation == "get") {
    auto state = wslconfig ? dsc::wslconfig_get(desired, tfwsl) : dsc::profile_get(desired, tfwsl);
    return state ? print_dsc_state(console, *state, nullptr) : dsc_failure(console, state.error().describe());
  }
  if (args.operation == "test") {
    if (wslconfig) {
      auto tested = dsc::wslconfig_test(desired, tfwsl);
      return tested ? print_dsc_state(console, tested->state, &tested->differing)
                    : dsc_failure(console, tested.error().describe());
    }
    auto tested = dsc::profile_test(desired, tfwsl);
    return tested ? print_dsc_state(console, tested->state, &tested->differing)
                  : dsc_failure(console, tested.error().describe());
  }
  auto state = wslconfig ? dsc::wslconfig_set(desired, tfwsl) : dsc::profile_set(desired, tfwsl);
  return state ? print_dsc_state(console, *state, nullptr) : dsc_failure(console, state.error().describe());
}

int run_dsc_command(const DscArgs& args, Console& console, const RunTfwslCaptured& run_tfwsl) {
  const auto manifest = dsc::resource_manifest(args.resource);
  if (!manifest) {
    std::string known;
    for (const auto& type : dsc::resource_types()) known += (known.empty() ? "" : ", ") + type;
    return dsc_failure(console, fmt::format("unknown resource type '{}' (tfwsl has {})", args.resource, known));
  }
  if (args.operation == "manifest" || args.operation == "schema") {
    console.out << (args.operation == "manifest" ? *manifest : *dsc::instance_schema(args.resource)).dump(2) << "\n";
    return exit_code::k_ok;
  }
  auto desired = read_desired_state(args);
  if (!desired) return dsc_failure(console, desired.error().describe());
  InProcessTfwslInvoker tfwsl(run_tfwsl);
  return run_dsc_operation(args, *desired, tfwsl, console);
}

}  // namespace

void register_dsc_command(CLI::App& app, CommandTable& commands, Console& console, const RunTfwslCaptured& run_tfwsl) {
  auto args = std::make_shared<DscArgs>();
  auto* cmd = app.add_subcommand("dsc",
                                 "A DSC v3 resource for fleet engines: get, test or set .wslconfig values or a "
                                 "provisioned profile (docs/fleet.md)");
  cmd->add_option("operation", args->operation,
                  "get, test or set (the desired state as JSON on stdin; none: {}); export; manifest or schema")
      ->required()
      ->check(CLI::IsMember({"get", "test", "set", "export", "manifest", "schema"}));
  cmd->add_option("--resource", args->resource, "The resource type: Tfwsl/WslConfig or Tfwsl/Profile")->required();
  cmd->add_option("--input", args->input, "The desired state as JSON instead of stdin")
      ->each([args](const std::string&) { args->input_given = true; });
  cmd->footer(
      help_footer("Exit status: 0 the operation ran (test: see _inDesiredState), 2 an error (a JSON line "
                  "{\"error\": ...} on stderr).",
                  {"echo {\"memory\":\"16GB\"} | tfwsl dsc test --resource Tfwsl/WslConfig",
                   "tfwsl dsc set --resource Tfwsl/Profile --input {\"profile\":\"tf-2.15-cuda-12.2\"}",
                   "tfwsl dsc export --resource Tfwsl/WslConfig", "tfwsl dsc manifest --resource Tfwsl/WslConfig"}));
  commands.add(cmd, [args, &console, run_tfwsl] { return run_dsc_command(*args, console, run_tfwsl); });
}

}  // namespace tfwsl::cli
