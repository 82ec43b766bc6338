#include "win/tasks/migrate_ports.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>

#include "common/compat/compat_db.hpp"
#include "common/profile/profile_loader.hpp"
#include "common/provision/provision_plan.hpp"
#include "common/text/utf_convert.hpp"
#include "common/util/atomic_file.hpp"
#include "common/util/linked_folder.hpp"
#include "common/util/plural.hpp"
#include "common/util/regular_file.hpp"
#include "win/migrate/distro_choice.hpp"
#include "win/migrate/import_failure_hint.hpp"
#include "win/migrate/ownership_mark.hpp"
#include "win/platform/host_platform.hpp"
#include "win/platform/local_agent_binary.hpp"
#include "win/push/interrupt_catcher.hpp"
#include "win/push/progress_text.hpp"
#include "win/push/push_run.hpp"
#include "win/tasks/distro_project_files.hpp"
#include "win/tasks/provision_recap_words.hpp"
#include "win/tasks/provision_run.hpp"
#include "win/tasks/push_setup.hpp"

namespace tfwsl::cli {
namespace {

// The cap on a project file migrate reads back before replacing it (the distro side has the same).
constexpr std::uintmax_t k_max_project_file_bytes = 16u << 20;

constexpr auto k_pip_timeout = std::chrono::hours(2);
constexpr auto k_verify_timeout = std::chrono::minutes(10);

std::string linux_parent(const std::string& path) {
  auto slash = path.find_last_of('/');
  return slash == std::string::npos || slash == 0 ? std::string("/") : path.substr(0, slash);
}

std::string linux_name(const std::string& path) {
  auto slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// The agent's JSON answer, or an error with what it said on stderr.
Result<nlohmann::json> agent_json(const DistroReply& reply, const std::string& what) {
  auto j = nlohmann::json::parse(reply.out, nullptr, false);
  if (j.is_discarded() || !j.is_object())
    return make_error(ErrorCode::process, fmt::format("{} exited {} without its JSON answer", what, reply.exit_code),
                      reply.err.substr(0, 4000));
  return j;
}

std::string unmet_words(const nlohmann::json& unmet) {
  std::vector<std::string> items;
  for (const auto& u : unmet)
    items.push_back(
        fmt::format("{} ({}): {}", u.value("requirement", ""), u.value("source", ""), u.value("reason", "")));
  return items.empty() ? std::string("nothing named") : fmt::format("{}", fmt::join(items, "; "));
}

class SystemMigrationPorts final : public migrate::MigrationPorts {
 public:
  SystemMigrationPorts(MigratePortSettings settings, Machine& machine)
      : m_settings(std::move(settings)),
        m_machine(machine),
        m_commands(make_distro_commands(m_settings.distro, machine)) {}

  Result<std::string> provision(const migrate::ShippedProfile& profile) override {
    // The distro migrate chose (distro_choice.hpp) over the profile's own, here and in the agent.
    const std::vector<std::string> overrides = migrate::profile_overrides(profile);
    ProfileLoadOptions options;
    options.overrides = overrides;
    TFWSL_TRY(loaded, load_valid_profile(profile.name, options));
    provision::PlanSettings settings;
    settings.inside_wsl = m_settings.windows;
    TFWSL_TRY(plan, provision::build_provision_plan(loaded, builtin_compat_db(), settings));
    const nlohmann::json check =
        run_provision_steps({profile.name, true, "", m_settings.agent, overrides}, plan, m_machine);
    const agent_api::RecapCounts checked = recap_counts(check);
    if (checked.failed > 0) return tl::unexpected(provisioning_stopped(check, true));
    if (checked.changed == 0)
      return fmt::format("already provisioned ({}): {} ok", profile.name, plural(checked.ok, "check", "checks"));
    const nlohmann::json applied =
        run_provision_steps({profile.name, false, "", m_settings.agent, overrides}, plan, m_machine);
    const agent_api::RecapCounts done = recap_counts(applied);
    if (done.failed > 0) return tl::unexpected(provisioning_stopped(applied, false));
    return fmt::format("{}: {} changed ({})", profile.name, plural(done.changed, "step", "steps"),
                       recap_rows(check, "changed"));
  }

  Result<migrate::CopyOutcome> copy_tree(const migrate::CopyRequest& copy) override;

  Result<std::string> install_requirements(const migrate::ShippedProfile& profile, const std::string& linux_project,
                                           const std::vector<std::string>& files,
                                           const std::vector<std::string>& extra) override {
    TFWSL_TRY(agent, agent_path());
    std::vector<std::string> argv = {agent, "venv", "install", "--venv", profile.venv, "--json"};
    for (const auto& f : files) argv.insert(argv.end(), {"-r", linux_project + "/" + f});
    for (const auto& e : extra) argv.insert(argv.end(), {"--package", e});
    TFWSL_TRY(reply, m_commands->run(argv, std::nullopt, k_pip_timeout));
    TFWSL_TRY(answer, agent_json(reply, "tfwsl-agent venv install"));
    if (reply.exit_code != 0) return make_error(ErrorCode::process, pip_failure_words(answer, profile.venv));
    const std::string requirements = plural(answer.value("requirements", 0), "requirement", "requirements");
    if (!answer.value("pip_ran", false)) return fmt::format("{} already met in {}", requirements, profile.venv);
    return fmt::format("pip installed what {} lacked ({}; log {})", profile.venv, requirements,
                       answer.value("log", std::string()));
  }

  Result<std::optional<std::string>> requirements_unmet(const migrate::ShippedProfile& profile,
                                                        const std::string& linux_project,
                                                        const std::vector<std::string>& files,
                                                        const std::vector<std::string>& extra) override {
    TFWSL_TRY(agent, agent_path());
    std::vector<std::string> argv = {agent, "venv", "install", "--venv", profile.venv, "--check", "--json"};
    for (const auto& f : files) argv.insert(argv.end(), {"-r", linux_project + "/" + f});
    for (const auto& e : extra) argv.insert(argv.end(), {"--package", e});
    TFWSL_TRY(reply, m_commands->run(argv, std::nullopt, k_verify_timeout));
    TFWSL_TRY(answer, agent_json(reply, "tfwsl-agent venv install --check"));
    if (reply.exit_code == 0) return std::optional<std::string>();
    if (answer.contains("error")) return std::optional<std::string>(answer["error"].get<std::string>());
    return std::optional<std::string>("unmet: " + unmet_words(answer.value("unmet", nlohmann::json::array())));
  }

  std::optional<std::string> venv_broken(const migrate::ShippedProfile& profile) override {
    return distro_python_fails(*m_commands, profile.venv);
  }

  bool linux_folder_exists(const std::string& path) override { return distro_folder_exists(*m_commands, path); }

  Result<std::string> check_gpu_and_import(const migrate::ShippedProfile& profile, const std::string& linux_project,
                                           const migrate::MainEntry& entry,
                                           const std::vector<std::string>& env) override {
    TFWSL_TRY(agent, agent_path());
    std::vector<std::string> argv = {agent,        "venv",      "verify",      "--venv",
                                     profile.venv, "--project", linux_project, "--json"};
    if (!entry.module.empty()) argv.insert(argv.end(), {"--module", entry.module});
    if (!entry.script.empty()) argv.insert(argv.end(), {"--script", entry.script});
    const std::string module = entry.module.empty() ? entry.script : entry.module;
    for (const auto& e : env) argv.insert(argv.end(), {"--env", e});
    TFWSL_TRY(reply, m_commands->run(argv, std::nullopt, k_verify_timeout));
    TFWSL_TRY(answer, agent_json(reply, "tfwsl-agent venv verify"));
    if (reply.exit_code != 0 || !answer.value("ok", false))
      return make_error(ErrorCode::process, verify_failure(answer));
    const auto& tf = answer["tensorflow"];
    std::string detail = fmt::format("TensorFlow {} sees {}", tf.value("version", "?"),
                                     fmt::join(tf.value("gpus", std::vector<std::string>{}), ", "));
    if (!module.empty()) detail += fmt::format("; import {} ok", module);
    return detail;
  }

  Result<std::string> linux_home() override { return distro_home(*m_commands); }
  Status write_linux_file(const std::string& root, const std::string& relative, const std::string& text,
                          const std::string& expect) override {
    TFWSL_TRY(files, project_files());
    return files.write(root, relative, text, expect);
  }
  Result<std::optional<std::string>> read_linux_file(const std::string& root, const std::string& relative) override {
    TFWSL_TRY(files, project_files());
    return files.read(root, relative);
  }
  Result<std::optional<migrate::FileManifest>> linux_manifest(const std::string& root) override {
    TFWSL_TRY(files, project_files());
    return files.manifest(root);
  }
  Result<migrate::PlaceOutcome> place_files(const std::string& staging, const std::string& root,
                                            const std::vector<migrate::PlaceRequest>& requests) override {
    TFWSL_TRY(files, project_files());
    return files.place(staging, root, requests);
  }

  // Read whole and closed before anything replaces it: Windows refuses to replace an open file
  // (ERROR_SHARING_VIOLATION, 32). Only a regular file of at most 16 MiB under plain folders is
  // read (a FIFO would block, a device never end, a linked folder lead outside the project).
  std::optional<std::string> read_project_file(const std::string& relative_path) override {
    const std::filesystem::path relative = path_from_utf8(relative_path);
    if (first_linked_folder(m_settings.project, relative)) return std::nullopt;
    RegularFileRead read = read_regular_file(m_settings.project / relative, k_max_project_file_bytes);
    if (read.problem != FileReadProblem::none) return std::nullopt;
    return std::move(read.bytes);
  }

  // Beside the user's files: the same bytes again are left alone (a second run writes nothing), and
  // a file there that migrate cannot prove it wrote (ownership_mark.hpp) is never replaced. A folder
  // on the way that is a link or a junction is refused: a write by path would land where it leads.
  Status write_project_file(const std::string& relative_path, const std::string& text) override {
    const std::filesystem::path relative = path_from_utf8(relative_path);
    if (auto linked = first_linked_folder(m_settings.project, relative))
      return make_error(ErrorCode::conflict,
                        fmt::format("{} is a link, a junction or not a folder, which migrate never writes through: "
                                    "{} was not written; replace it with a plain folder and run migrate again",
                                    path_to_utf8(*linked), relative_path));
    const std::filesystem::path target = m_settings.project / relative;
    const std::optional<std::string> old = read_project_file(relative_path);
    if (old == text) return {};
    std::error_code ec;
    const bool taken = std::filesystem::symlink_status(target, ec).type() != std::filesystem::file_type::not_found;
    if (taken && !(old && migrate::written_by_migrate(*old)))
      return make_error(ErrorCode::conflict,
                        fmt::format("{} was not written by tfwsl migrate (or was changed since the plan was made): "
                                    "left as it is; run migrate again to see the plan",
                                    relative_path));
    return replace_file_atomically(target, text);
  }

 private:
  Result<std::string> agent_path() const {
    if (m_settings.windows) return distro_agent_path();
    TFWSL_TRY(binary, find_local_agent_binary(m_settings.agent));
    return path_to_utf8(binary);
  }

  Result<DistroProjectFiles> project_files() const {
    TFWSL_TRY(agent, agent_path());
    return DistroProjectFiles(*m_commands, agent);
  }

  static std::string verify_failure(const nlohmann::json& answer) {
    std::vector<std::string> failed;
    for (const auto& c : answer.value("checks", nlohmann::json::array()))
      if (c.value("status", "") != "ok") failed.push_back(c.value("id", "") + ": " + c.value("summary", ""));
    if (answer.contains("import") && answer["import"].is_object() && !answer["import"].value("ok", true)) {
      const auto& imported = answer["import"];
      std::vector<std::string> lines;  // the import's last lines of output
      if (imported.contains("output") && imported["output"].is_array())
        for (const auto& l : imported["output"]) lines.push_back(l.is_string() ? l.get<std::string>() : l.dump());
      const std::string module = imported.value("module", "");
      failed.push_back(fmt::format("import {}: {}", module, fmt::join(lines, " | ")));
      if (auto hint = migrate::import_failure_hint(lines, module)) failed.back() += " (hint: " + *hint + ")";
    }
    if (failed.empty()) failed.push_back(answer.value("error", std::string("the GPU check failed")));
    return "the GPU check in the venv failed: " + fmt::format("{}", fmt::join(failed, "; "));
  }

  MigratePortSettings m_settings;
  Machine& m_machine;
  std::unique_ptr<DistroCommands> m_commands;
};

Result<migrate::CopyOutcome> SystemMigrationPorts::copy_tree(const migrate::CopyRequest& copy) {
  push::PushRequest request;
  request.source = copy.source;
  request.name = linux_name(copy.target);
  request.to = linux_parent(copy.target);
  request.distro = m_settings.distro;
  request.exclude = copy.skip;
  request.windows = m_settings.windows;
  request.jobs = m_settings.jobs;
  PushSetup setup({m_settings.distro, m_settings.agent, m_settings.windows}, m_machine);
  push::PushEnvironment& env = setup.env();
  push::InterruptCatcher catcher;  // Ctrl-C cancels the job through the API, as in tfwsl data push
  env.interrupted = [this, &catcher] { return catcher.requested() || m_settings.interrupted(); };
  env.progress = [this](const push::JobProgress& p) { m_settings.progress(push::progress_text(p)); };
  push::PushPlan plan;
  TFWSL_TRY_STATUS(push::plan_push(env, request, plan));
  const push::PushOutcome outcome = push::execute_push(env, request, std::move(plan));
  if (outcome.end == push::PushEnd::interrupted)
    return make_error(ErrorCode::cancelled, "interrupted: what is copied stays; run migrate again to resume");
  if (outcome.error) return tl::unexpected(*outcome.error);
  if (!outcome.job) return make_error(ErrorCode::internal, "the copy ended without a job state");
  const auto& p = outcome.job->progress;
  return migrate::CopyOutcome{p.files_total, p.bytes_total, p.problems};
}

}  // namespace

std::string pip_failure_words(const nlohmann::json& answer, const std::string& venv) {
  std::string out = answer.value("error", fmt::format("pip failed in {}", venv));
  const nlohmann::json none = nlohmann::json::array();
  const auto& after = answer.contains("unmet_after") ? answer["unmet_after"] : none;
  const auto& unmet = !after.empty() ? after : answer.contains("unmet") ? answer["unmet"] : none;
  if (!unmet.empty()) out += "; still unmet: " + unmet_words(unmet);
  if (answer.contains("pip_tail") && answer["pip_tail"].is_array() && !answer["pip_tail"].empty()) {
    std::vector<std::string> lines;
    for (const auto& l : answer["pip_tail"]) lines.push_back(l.is_string() ? l.get<std::string>() : l.dump());
    out += fmt::format("; pip's last lines: {}", fmt::join(lines, " | "));
  }
  if (answer.contains("log") && answer["log"].is_string()) out += "; pip's log: " + answer["log"].get<std::string>();
  return out;
}

std::unique_ptr<migrate::MigrationPorts> make_system_migration_ports(MigratePortSettings settings, Machine& machine) {
  return std::make_unique<SystemMigrationPorts>(std::move(settings), machine);
}

}  // namespace tfwsl::cli
