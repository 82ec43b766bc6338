#include "win/tasks/profile_machine.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "common/cli/json_envelope.hpp"
#include "common/cli/status_line.hpp"
#include "common/core/clock.hpp"
#include "common/core/exit_codes.hpp"
#include "common/profile/profile_schema.hpp"
#include "common/profile/profile_source.hpp"
#include "common/profile/profile_validator.hpp"
#include "common/text/utf_convert.hpp"
#include "common/util/visible_text.hpp"
#include "win/profile/profile_drift.hpp"
#include "win/profile/profile_export_text.hpp"
#include "win/render/json_schema_names.hpp"
#include "win/render/profile_render.hpp"
#include "win/tasks/machine_access.hpp"
#include "win/tasks/profile_choice.hpp"
#include "win/tasks/profile_file_write.hpp"

namespace tfwsl::cli {
namespace {

ProfileMachineFacts profile_facts_of(const doctor::MachineFacts& m) {
  ProfileMachineFacts f;
  f.host.distro = m.distro;
  if (!m.host.is_windows)
    f.host.distro_why = "not Windows: the agent runs on this machine, not in a WSL distribution";
  else if (m.distro.empty())
    f.host.distro_why = m.linux_side.error;
  if (m.host.is_windows && !m.host.gpus.empty()) f.host.windows_driver = m.host.gpus.front().driver_version;
  f.host.wslconfig_path = m.wslconfig.path;
  if (m.wslconfig.present) f.host.wslconfig_bytes = m.wslconfig.bytes;
  f.host.wslconfig_error = m.wslconfig.read_error;
  f.linux = m.linux_side.facts;
  f.linux_error = m.linux_side.error;
  return f;
}

struct Gathered {
  ProfileMachineFacts facts;
  DiffMachine machine;
};

// The machine as the doctor sees it, with a status line while the agent's TensorFlow probe runs.
Gathered gather_this_machine(const MachineArgs& args, const std::string& command, bool quiet, Console& console,
                             Machine& machine) {
  MachineAccess access(args.agent, machine);
  doctor::DoctorEnvironment env = access.environment(args.distro);
  StatusLine status(console.err, command, machine.clock, status_line_settings(console));
  if (!quiet) {
    env.progress = [&status](const std::string& step) { status.set_step(step); };
    status.start();
  }
  const doctor::MachineFacts m = doctor::gather_machine_facts(env);
  status.stop();
  Gathered g{profile_facts_of(m),
             {m.distro, m.linux_side.facts ? m.linux_side.description : "no agent: " + m.linux_side.error}};
  spdlog::info("{}: {}", command, g.machine.agent);
  return g;
}

// Half the machine unseen, or a profile with errors: the diff is not the whole answer (exit 2), and
// both the text and the JSON say why.
std::string why_incomplete(const ProfileLoadResult& loaded, const Gathered& g) {
  if (has_errors(loaded.issues)) return "the profile has errors (listed on stderr)";
  if (!g.facts.linux) return "the distro's facts could not be read (" + g.machine.agent + ")";
  return {};
}

// --base as given: a built-in name stays one (`extends: builtin:NAME`); a file is named relative to
// the folder of the file written (where `extends` is resolved from), or as given on stdout.
std::optional<ExportBase> load_export_base(const std::string& option, const std::string& file, std::ostream& err) {
  const auto chosen = load_chosen_profile(option);
  if (!chosen.loaded.profile || has_errors(chosen.loaded.issues)) {
    err << "tfwsl profile export: --base " << visible_text(option) << " does not load:\n"
        << issues_text(chosen.loaded.issues) << "nothing written\n";
    return std::nullopt;
  }
  const Profile& profile = *chosen.loaded.profile;
  const std::string root = profile.sources.empty() ? option : profile.sources.back();
  if (root.rfind("builtin:", 0) == 0) {
    std::string name = root;
    if (name.size() > 5 && name.ends_with(".yaml")) name.resize(name.size() - 5);
    return ExportBase{name, profile};
  }
  if (file.empty()) return ExportBase{option, profile};
  std::error_code ec;
  const auto folder = std::filesystem::absolute(path_from_utf8(file), ec).parent_path();
  const auto relative = std::filesystem::absolute(path_from_utf8(option), ec).lexically_relative(folder);
  if (relative.empty()) return ExportBase{option, profile};
  std::string reference = path_to_utf8(relative);
  std::replace(reference.begin(), reference.end(), '\\', '/');  // a profile's paths use '/' on both systems
  return ExportBase{reference, profile};
}

// The file's header says what it is, and what it lacks (the machine did not show it) before the YAML.
// Over a --base, diff finds what the base gives and the machine lacks: no "no drift" is promised.
std::string exported_file_text(const ExportedProfile& exported, const std::string& distro, bool over_base) {
  std::string text = "# This machine (" + (distro.empty() ? std::string("native") : distro) +
                     "), written by tfwsl profile export" +
                     (over_base ? ".\n" : "; `tfwsl profile diff` of it here finds no drift.\n");
  if (!exported.extends.empty()) text += "# It extends " + exported.extends + " and sets what differs.\n";
  for (const auto& m : exported.missing)
    text += "# Not set: " + m.key + " (" + m.why + "): add it, or export again with --base PROFILE.\n";
  return text + exported.text;
}

void say_missing(const std::vector<ExportMissingKey>& missing, std::ostream& err) {
  for (const auto& m : missing)
    err << "tfwsl profile export: the profile has no " << m.key << ": " << m.why
        << "; name a profile that gives it with --base (e.g. --base " << default_profile_name()
        << "), or add it to the file\n";
}

}  // namespace

int run_profile_diff(const DiffArgs& args, Console& console, Machine& machine) {
  const auto chosen = load_chosen_profile(args.profile);
  for (const auto& ignored : chosen.choice.ignored) console.err << "tfwsl profile diff: ignored " << ignored << "\n";
  if (!chosen.loaded.profile) {
    console.err << "tfwsl profile diff: the profile " << chosen.choice.from << " does not load:\n"
                << issues_text(chosen.loaded.issues);
    return exit_code::k_failure;
  }
  // A profile with errors is still compared (what it says is known); the errors are said first.
  if (!chosen.loaded.issues.empty()) console.err << issues_text(chosen.loaded.issues);
  const Profile& profile = *chosen.loaded.profile;
  const Gathered g =
      gather_this_machine(args.machine, "tfwsl profile diff", args.json || args.machine.quiet, console, machine);
  const ProfileDiff diff = diff_profile(profile, g.facts);
  const std::string incomplete = why_incomplete(chosen.loaded, g);
  if (args.json) {
    auto j = with_json_envelope(diff_json(profile, chosen.choice, g.machine, diff, incomplete),
                                json_schema::k_profile_diff, json_schema::k_version);
    console.out << j.dump(2) << "\n";
  } else {
    console.out << diff_text(profile, chosen.choice, g.machine, diff);
    if (!incomplete.empty()) console.out << "not the whole answer: " << incomplete << "\n";
  }
  if (!incomplete.empty()) return exit_code::k_failure;
  return diff.drifts.empty() ? exit_code::k_ok : exit_code::k_warning;
}

int run_profile_export(const ExportArgs& args, Console& console, Machine& machine) {
  // The name goes into the profile as it is: the rule `profile validate` applies to it is checked
  // first, so export never writes a profile that validate refuses (nor asks the machine first).
  if (const auto problem = profile_key_problem("name", args.name)) {
    console.err << "tfwsl profile export: --name: " << problem->message
                << ": pass e.g. --name my-team; nothing written\n";
    return exit_code::k_usage;
  }
  std::optional<ExportBase> base;
  if (!args.base.empty()) {
    base = load_export_base(args.base, args.file, console.err);
    if (!base) return exit_code::k_usage;
  }
  const Gathered g = gather_this_machine(args.machine, "tfwsl profile export", args.machine.quiet, console, machine);
  if (!g.facts.linux) {
    console.err << "tfwsl profile export: " << g.machine.agent << "\n";
    return exit_code::k_failure;
  }
  const ExportedProfile exported = export_machine_profile(g.facts, args.name, base ? &*base : nullptr);
  // A key the machine does not show is said below in export's words, not as a file's error.
  std::vector<std::string_view> unshown;
  for (const auto& m : exported.missing) unshown.push_back(m.key);
  const auto issues = validate_profile(exported.profile, builtin_compat_db(), unshown);
  if (!issues.empty()) console.err << "tfwsl profile export: this machine, as a profile:\n" << issues_text(issues);
  // An invalid profile would be refused by every command that reads it: none is written.
  if (has_errors(issues)) {
    console.err << "tfwsl profile export: nothing written: the profile this machine makes has errors (above)\n";
    return exit_code::k_failure;
  }
  const std::string text = exported_file_text(exported, g.machine.distro, base.has_value());
  const int written =
      args.file.empty()
          ? (console.out << text, exit_code::k_ok)
          : write_with_consent({"tfwsl profile export", args.file, text, args.yes, args.dry_run}, console, std::cin);
  say_missing(exported.missing, console.err);
  return written == exit_code::k_ok && !exported.missing.empty() ? exit_code::k_warning : written;
}

}  // namespace tfwsl::cli
