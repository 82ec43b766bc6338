#include "win/tasks/migrate_apply.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <memory>
#include <vector>

#include "common/cli/fitted_output.hpp"
#include "common/cli/json_envelope.hpp"
#include "common/cli/status_line.hpp"
#include "common/core/clock.hpp"
#include "common/core/exit_codes.hpp"
#include "common/text/utf_convert.hpp"
#include "common/util/shell_quote.hpp"
#include "common/util/visible_text.hpp"
#include "win/migrate/apply_plan.hpp"
#include "win/migrate/local_project_manifest.hpp"
#include "win/migrate/wsl_copy_record.hpp"
#include "win/render/json_schema_names.hpp"
#include "win/tasks/agent_consent.hpp"
#include "win/tasks/agent_upgrade.hpp"
#include "win/tasks/migrate_ports.hpp"

namespace tfwsl::cli {
namespace {

std::string consent_question(const migrate::MigratePlan& plan, const std::string& reapply) {
  const auto& target = *plan.decision.target;
  std::string datasets;
  // The question quotes the project's paths and file names: shown visibly (migrate_plan_text.cpp).
  for (const auto& ds : plan.datasets)
    datasets += fmt::format(", import {} to {}", visible_text(ds.windows_path), visible_text(ds.linux_path));
  return fmt::format("Provision {} in {}, copy the project to {}{}, and install its requirements into {}?{}{}",
                     visible_text(target.name), visible_text(target.distro), visible_text(plan.project_linux_path),
                     datasets, visible_text(target.venv), reapply.empty() ? "" : "\n", visible_text(reapply));
}

// A live status line for the step that runs (its own, so the step's result line never meets it).
class StepProgress {
 public:
  StepProgress(Console& console, bool quiet, const Clock& clock) : m_console(console), m_quiet(quiet), m_clock(clock) {}
  void starting(const std::string& step) {
    if (m_quiet) return;
    m_line = std::make_unique<StatusLine>(m_console.err, "tfwsl migrate", m_clock, status_line_settings(m_console));
    m_line->set_step(step);
    m_line->start();
  }
  void update(const std::string& words) {
    if (m_line) m_line->update_step(words);
  }
  void finished(const migrate::StepResult& result) {
    stop();
    if (m_quiet) return;
    m_console.out << fmt::format("{:<6} {:<26} {}\n", result.ran ? "done" : "kept", result.step,
                                 visible_text(result.detail));
    m_console.out.flush();
  }
  void stop() {
    if (m_line) m_line->stop();
    m_line.reset();
  }

 private:
  Console& m_console;
  bool m_quiet;
  const Clock& m_clock;
  std::unique_ptr<StatusLine> m_line;
};

nlohmann::json applied_json(const std::vector<migrate::StepResult>& steps, const std::optional<Error>& error) {
  nlohmann::json list = nlohmann::json::array();
  for (const auto& s : steps) list.push_back({{"step", s.step}, {"ran", s.ran}, {"detail", s.detail}});
  return {
      {"steps", list}, {"ok", !error}, {"error", error ? nlohmann::json(error->describe()) : nlohmann::json(nullptr)}};
}

// The container route: the image run by Podman in the distro, the project mounted at its own path.
void print_how_to_run_in_container(const migrate::MigratePlan& plan, Console& console) {
  const auto run = migrate::how_to_run_in_container(plan);
  print_text(
      console,
      fmt::format("\nThe project is in {}, the image {} is ready (the container route).\n"
                  "Run it inside WSL:  {}\nFrom PowerShell:    {}\n",
                  visible_text(plan.project_linux_path), visible_text(plan.container->image), run.in_wsl, run.wsl),
      {{Shell::bash, run.in_wsl}, {Shell::powershell, run.wsl}});
}

void print_how_to_run(const migrate::MigratePlan& plan, migrate::MigrationPorts& ports, Console& console) {
  auto home = ports.linux_home();
  const migrate::MigratePlan resolved = home ? migrate::with_home(plan, *home) : plan;
  if (resolved.container) return print_how_to_run_in_container(resolved, console);
  const auto run = migrate::how_to_run(resolved);
  print_text(
      console,
      fmt::format("\nThe project is in {} (MIGRATION.md there says what changed).\nRun it from its folder:  {}\n"
                  "Without tfwsl, from PowerShell:  {}\n"
                  "       from cmd.exe:     {}\n       inside WSL:       {}\nVS Code (PowerShell):    {}\n",
                  visible_text(resolved.project_linux_path), run.tfwsl, run.wsl, run.wsl_cmd, run.in_wsl, run.vscode),
      {{Shell::powershell, run.tfwsl},
       {Shell::powershell, run.wsl},
       {Shell::cmd, run.wsl_cmd},
       {Shell::bash, run.in_wsl},
       {Shell::powershell, run.vscode}});
}

// Windows: the steps in the distro run the installed agent, so one older than this tfwsl is upgraded
// first (agent_upgrade.hpp), asking as every change does.
bool upgrade_agent_first(const MigrateApplyRequest& request, const migrate::MigratePlan& plan, Console& console,
                         Machine& machine) {
  auto upgraded = upgrade_distro_agent(plan.decision.target->distro, request.agent,
                                       {"", "", "tfwsl migrate", request.yes, false}, console, machine);
  if (!upgraded) console.err << "tfwsl migrate: " << upgraded.error().describe() << "\n";
  return upgraded.has_value();
}

// The record `tfwsl run` reads in the project's folder on this side (.tfwsl/wsl-copy.json).
Status record_beside_project(const migrate::MigratePlan& plan, const std::vector<migrate::StepResult>& steps,
                             migrate::MigrationPorts& ports, const std::filesystem::path& project) {
  TFWSL_TRY(home, ports.linux_home());
  const auto record = migrate::wsl_copy_record(migrate::with_home(plan, home), home, steps, migrate::seconds_now());
  return migrate::write_local_wsl_copy_record(project, record);
}

}  // namespace

int apply_migration(const MigrateApplyRequest& request, const migrate::MigratePlan& plan, Console& console,
                    Machine& machine) {
  if (!request.json) console.out << migrate::render_text(plan) << "\n";
  console.out.flush();
  StepProgress progress(console, request.json, machine.clock);
  MigratePortSettings settings;
  settings.distro = plan.decision.target->distro;
  settings.agent = request.agent;
  settings.windows = machine.host.system().is_windows;
  settings.project = request.root;
  settings.jobs = request.jobs;
  settings.progress = [&progress](const std::string& words) { progress.update(words); };
  auto ports = make_system_migration_ports(std::move(settings), machine);
  // Read-only before consent: the record and the WSL copy say what a copy would replace there.
  auto reapply =
      migrate::preview_reapply(plan, *ports, migrate::local_project_manifest(request.root, request.copy_git));
  if (!reapply)
    reapply = "What the WSL copy holds could not be read now (" + reapply.error().describe() +
              "): a file changed there is still never replaced.";
  auto consent = confirm_change(console, request.yes, consent_question(plan, *reapply), "apply the plan");
  if (!consent) {
    console.err << "tfwsl migrate: " << consent.error().describe() << "\n";
    return exit_code::k_failure;
  }
  if (!reapply->empty() && request.yes && !request.json) console.out << visible_text(*reapply) << "\n";
  if (machine.host.system().is_windows && !upgrade_agent_first(request, plan, console, machine))
    return exit_code::k_failure;

  std::vector<migrate::StepResult> done;
  migrate::ApplyOptions options{request.project, request.copy_git};
  options.starting = [&progress](const std::string& step) { progress.starting(step); };
  options.finished = [&progress, &done](const migrate::StepResult& r) {
    done.push_back(r);
    progress.finished(r);
  };
  auto steps = migrate::apply_plan(plan, *ports, options);
  progress.stop();
  std::optional<Error> error;
  if (!steps) error = steps.error();
  // The run record names a venv; the container route has none (its run is the podman line printed).
  if (!error && !plan.container)
    if (auto recorded = record_beside_project(plan, *steps, *ports, request.root); !recorded) error = recorded.error();
  if (request.json) {
    nlohmann::json j = migrate::to_json(plan);
    j["applied"] = applied_json(done, error);
    console.out << with_json_envelope(j, json_schema::k_migrate_plan, json_schema::k_version)
                       .dump(2, ' ', false, nlohmann::json::error_handler_t::replace)
                << "\n";
  } else if (!error) {
    print_how_to_run(plan, *ports, console);
  }
  if (!error) return exit_code::k_ok;
  console.err << "tfwsl migrate: " << error->describe() << "\n";
  if (error->code == ErrorCode::cancelled) return exit_code::k_interrupted;
  console.err << "tfwsl migrate: the steps before it are done and kept; the same command resumes from there\n";
  return exit_code::k_failure;
}

}  // namespace tfwsl::cli
