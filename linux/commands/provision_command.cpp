#include "linux/commands/provision_command.hpp"

#include <fmt/format.h>
#include <pwd.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "common/cli/json_envelope.hpp"
#include "common/compat/compat_db.hpp"
#include "common/core/exit_codes.hpp"
#include "common/judge/assess.hpp"
#include "common/process/process_runner.hpp"
#include "common/profile/profile_loader.hpp"
#include "common/profile/profile_source.hpp"
#include "common/provision/progress_event.hpp"
#include "common/provision/provision_plan.hpp"
#include "common/provision/provision_state_paths.hpp"
#include "common/util/ascii.hpp"
#include "linux/checks/linux_checks.hpp"
#include "linux/checks/probes.hpp"
#include "linux/provision/apt_download_sizes.hpp"
#include "linux/provision/distro_path.hpp"
#include "linux/provision/passwd_file.hpp"
#include "linux/provision/provision_executor.hpp"
#include "linux/provision/step_apply.hpp"

namespace tfwsl::agent {
namespace {

struct ProvisionArguments {
  std::string profile = default_profile_name();
  bool dry_run = false;
  bool check = false;
  bool json = false;
  bool progress_json = false;
  std::string user;
  std::string platform = "auto";
  std::string state_dir = provision::k_default_state_dir;
  std::string keyring_url;
  std::string toolkit_key_url;
  std::string toolkit_repository_url;
  std::string pip_find_links;
  int lock_wait_s = 120;
  std::vector<std::string> overrides;  // --set KEY=VALUE, over the profile (tfwsl migrate's distro choice)
};

// Under a probe root, only that root's kernel release says (this machine's WSL_DISTRO_NAME is not its).
bool running_inside_wsl(const std::filesystem::path& root) {
  if (!provision::observes_other_root(root) && std::getenv("WSL_DISTRO_NAME")) return true;
  std::ifstream in(root / "proc/sys/kernel/osrelease");
  std::string release;
  std::getline(in, release);
  return ascii_lower(release).find("microsoft") != std::string::npos;
}

// <root>/etc/wsl.conf's [user] default= (what WSL logs in as), else SUDO_USER, else the first ordinary
// user. Under a probe root the users are that root's (its etc/passwd); this machine's SUDO_USER is not one.
std::string default_distro_user(const std::filesystem::path& root) {
  std::ifstream in(root / "etc/wsl.conf");
  std::string line, section;
  while (std::getline(in, line)) {
    const auto t = std::string(trim(line));
    if (!t.empty() && t.front() == '[')
      section = ascii_lower(t);
    else if (section == "[user]" && t.rfind("default", 0) == 0 && t.find('=') != std::string::npos)
      return std::string(trim(std::string_view(t).substr(t.find('=') + 1)));
  }
  if (provision::observes_other_root(root)) return provision::first_ordinary_user_in(root).value_or("");
  if (const char* sudo = std::getenv("SUDO_USER"); sudo && *sudo) return sudo;
  ::setpwent();
  std::string found;
  while (const passwd* pw = ::getpwent()) {
    if (pw->pw_uid >= 1000 && pw->pw_uid < 60000) {
      found = pw->pw_name;
      break;
    }
  }
  ::endpwent();
  return found;
}

// getpwnam() on this machine; a probe root's own etc/passwd there.
Result<provision::DistroUser> find_user(const std::filesystem::path& root, const std::string& name) {
  if (provision::observes_other_root(root)) return provision::find_distro_user_in(root, name);
  return provision::find_distro_user(name);
}

int fail(Console& console, const std::string& message) {
  console.err << "tfwsl-agent provision: " << message << "\n";
  return exit_code::k_failure;
}

// The GPU as the doctor reads it (libcuda, no TensorFlow needed): on one no stock wheel runs on
// (Blackwell) the profile's pip TensorFlow would install and then fail on every kernel, so nothing
// is installed and the refusal names the way that works (NVIDIA's container).
std::optional<std::string> stock_wheels_refusal(const std::filesystem::path& root, const judge::CheckPolicy& policy,
                                                const AgentMachine& machine) {
  auto env = linux_checks::system_probe_environment(machine.shared_processes());
  env.root = root;
  agent_api::LinuxFacts facts;
  facts.gpu = linux_checks::probe_gpu(env);
  const auto refused = judge::stock_wheels_cannot_run(facts, policy);
  if (!refused) return std::nullopt;
  return fmt::format("refused, nothing installed: {}; {}", refused->summary, refused->fix);
}

// Progress for people (a line per event on stderr), for tfwsl (--progress-json: one JSON line per
// event, read as it comes), or none (--json alone keeps stderr for errors).
std::function<void(const provision::ProgressEvent&)> progress_sink(const ProvisionArguments& args, Console& console) {
  if (args.progress_json)
    return [&console](const provision::ProgressEvent& e) {
      console.err << provision::progress_json(e).dump() << "\n" << std::flush;
    };
  if (args.json) return {};
  return [&console](const provision::ProgressEvent& e) {
    console.err << provision::progress_words(e) << "\n" << std::flush;
  };
}

// `--profile -`: the merged profile tfwsl sent on stdin (win/tasks/provision_run.hpp), read up to
// one byte past the limit so an oversized one is named rather than cut; else a name or a file here.
Result<Profile> load_profile_argument(const ProvisionArguments& args) {
  ProfileLoadOptions load_options;
  load_options.overrides = args.overrides;
  if (args.profile != "-") return load_valid_profile(args.profile, load_options);
  std::string yaml(k_max_profile_bytes + 1, '\0');
  std::cin.read(yaml.data(), static_cast<std::streamsize>(yaml.size()));
  yaml.resize(static_cast<std::size_t>(std::cin.gcount()));
  return load_sent_profile(yaml, "the profile on standard input", load_options);
}

int run_provision(const ProvisionArguments& args, Console& console, const AgentMachine& machine) {
  auto profile = load_profile_argument(args);
  if (!profile) return fail(console, profile.error().describe());
  // A probe root means the agent observes another machine's files (a test world): provisioning
  // would change this machine instead, so only the plan and the check (which reads that root's
  // files and writes nothing) are offered there.
  const char* probe_root = std::getenv(linux_checks::k_probe_root_env);
  const std::filesystem::path root =
      probe_root && *probe_root ? std::filesystem::path(probe_root) : std::filesystem::path("/");
  if (!args.dry_run && !args.check && provision::observes_other_root(root))
    return fail(console,
                fmt::format("{} is set ({}): this agent observes another root, and provisioning would change this "
                            "machine instead; only --dry-run and --check run here",
                            linux_checks::k_probe_root_env, probe_root));
  provision::PlanSettings settings;
  settings.inside_wsl = args.platform == "auto" ? running_inside_wsl(root) : args.platform == "wsl";
  settings.user = args.user.empty() ? default_distro_user(root) : args.user;
  settings.keyring_url = args.keyring_url;
  settings.pip_find_links = args.pip_find_links;
  settings.toolkit_key_url = args.toolkit_key_url;
  settings.toolkit_repository_url = args.toolkit_repository_url;
  settings.apt.lock_timeout_s = args.lock_wait_s;
  provision::DistroUser user;
  if (auto found = find_user(root, settings.user); found) {
    user = *found;
    settings.home = user.home;
  } else if (!args.dry_run) {
    return fail(console,
                settings.user.empty() ? std::string("no user for the venv: pass --user") : found.error().describe());
  }
  auto plan = provision::build_provision_plan(*profile, builtin_compat_db(), settings);
  if (!plan) return fail(console, plan.error().describe());
  // apt's own figures replace the known sizes where it can answer; not for --check (which starts
  // no apt), nor under a probe root (this machine's apt does not know that root's packages).
  if (!args.check && !provision::observes_other_root(root)) {
    provision::ask_apt_download_sizes(*plan, root, machine.processes);
  }
  const std::string mode = args.dry_run ? "dry-run" : args.check ? "check" : "apply";
  nlohmann::json out = {{"mode", mode}, {"plan", provision::plan_to_json(*plan)}};
  if (args.dry_run) {
    if (!user.name.empty() && !provision::observes_other_root(root)) provision::note_refusals(*plan, user);
    if (args.json)
      console.out << with_json_envelope(out, json_schema::k_provision, json_schema::k_version).dump(2) << "\n";
    else
      console.out << provision::render_plan(*plan);
    return exit_code::k_ok;
  }
  auto policy = judge::check_policy_for(*profile, args.profile == "-" ? profile->name.value_or("sent") : args.profile);
  if (!policy) return fail(console, policy.error().describe());
  // A container route's policy has no stock-wheel verdict: the image is how such a GPU runs.
  if (auto refused = stock_wheels_refusal(root, *policy, machine)) return fail(console, *refused);
  provision::ExecutorSettings executor;
  executor.root = root;
  executor.state_dir = args.state_dir;
  executor.user = user;
  executor.check_only = args.check;
  executor.lock_wait = std::chrono::seconds(args.lock_wait_s);
  executor.policy = *policy;
  executor.processes = &machine.processes;
  executor.progress = progress_sink(args, console);
  auto recap = provision::run_distro_steps(*plan, executor);
  if (!recap) return fail(console, recap.error().describe());
  if (args.json) {
    out["recap"] = provision::to_json(*recap);
    console.out << with_json_envelope(out, json_schema::k_provision, json_schema::k_version).dump(2) << "\n";
  } else {
    console.out << provision::render_recap(*recap);
  }
  return recap->exit_code();
}

}  // namespace

void register_provision_command(CLI::App& app, CommandTable& commands, Console& console, AgentMachine& machine) {
  auto args = std::make_shared<ProvisionArguments>();
  auto* cmd = app.add_subcommand("provision",
                                 "Set up this distro for the profile: apt as root, the venv and TensorFlow as the user "
                                 "(the distro half of 'tfwsl provision')");
  cmd->add_option("--profile", args->profile,
                  "Profile (built-in name or YAML file) to provision; - reads it from standard input (what tfwsl "
                  "sends: the profile it loaded, merged)")
      ->capture_default_str();
  auto* dry = cmd->add_flag("--dry-run", args->dry_run, "Print the plan and change nothing");
  cmd->add_flag("--check", args->check, "Check every step and report what would change; change nothing")->excludes(dry);
  cmd->add_flag("--json", args->json,
                "Print the plan and the recap as one JSON object (docs/schema/provision.schema.json)");
  cmd->add_flag("--progress-json", args->progress_json,
                "Write progress (each step, apt's and pip's downloads) as JSON lines on stderr while it runs");
  cmd->add_option("--set", args->overrides,
                  "KEY=VALUE over the profile, as YAML (distro=Ubuntu-22.04, python.version='3.10'); repeatable")
      ->type_name("KEY=VALUE");
  cmd->add_option("--user", args->user,
                  "The distro user who owns the venv (default: wsl.conf's default user, SUDO_USER, "
                  "else the first user with uid >= 1000)");
  cmd->add_option("--platform", args->platform,
                  "wsl (no Linux driver allowed), native (a Linux driver required), or auto")
      ->check(CLI::IsMember({"auto", "wsl", "native"}))
      ->capture_default_str();
  cmd->add_option("--state-dir", args->state_dir, "Where the journal, the process log and the step logs go")
      ->capture_default_str();
  cmd->add_option("--keyring-url", args->keyring_url,
                  "Where cuda-keyring is fetched from (default: NVIDIA's repository for the distro)");
  cmd->add_option("--toolkit-key-url", args->toolkit_key_url,
                  "Where the NVIDIA container toolkit repository's key is fetched from (default: NVIDIA's)");
  cmd->add_option("--toolkit-repository-url", args->toolkit_repository_url,
                  "The NVIDIA container toolkit repository apt reads (default: NVIDIA's)");
  cmd->add_option("--pip-find-links", args->pip_find_links,
                  "Install the pip packages only from this folder (pip --no-index --find-links)");
  cmd->add_option("--lock-wait", args->lock_wait_s, "Seconds to wait for a dpkg lock held by another process")
      ->check(CLI::Range(0, 3600))
      ->capture_default_str();
  cmd->footer(help_footer("Exit status: 0 done (or nothing to do), 1 --check found steps to change, 2 a step failed.",
                          {"tfwsl-agent provision --dry-run", "sudo tfwsl-agent provision --check --user me",
                           "sudo tfwsl-agent provision --profile team.yaml --user me --json"}));
  commands.add(cmd, [args, &console, &machine]() { return run_provision(*args, console, machine); });
}

}  // namespace tfwsl::agent
