#include "win/tasks/vscode_setup.hpp"

#include <fmt/format.h>

#include <memory>

#include "common/core/exit_codes.hpp"
#include "common/text/utf_convert.hpp"
#include "common/util/content_hash.hpp"
#include "common/util/shell_quote.hpp"
#include "common/util/visible_text.hpp"
#include "win/migrate/vscode_files.hpp"
#include "win/platform/local_agent_binary.hpp"
#include "win/tasks/agent_consent.hpp"
#include "win/tasks/distro_commands.hpp"
#include "win/tasks/distro_project_files.hpp"
#include "win/tasks/provision_run.hpp"

namespace tfwsl::cli {
namespace {

Result<std::string> agent_path(const VscodeRequest& request, Machine& machine) {
  if (machine.host.system().is_windows) return distro_agent_path();
  TFWSL_TRY(binary, find_local_agent_binary(request.agent));
  return path_to_utf8(binary);
}

// settings.json and launch.json merged with what the copy holds; each with what it was (for the write's check).
struct PlannedFile {
  migrate::MergedFile merged;
  std::optional<std::string> before;
};

Result<std::vector<PlannedFile>> plan_files(DistroProjectFiles& files, const migrate::WslCopyRecord& record) {
  std::vector<PlannedFile> out;
  using Merge = Result<migrate::MergedFile> (*)(const std::optional<std::string>&, const migrate::WslCopyRecord&);
  for (const auto& [relative, merge] :
       {std::pair<const char*, Merge>{migrate::k_vscode_settings, &migrate::merge_vscode_settings},
        std::pair<const char*, Merge>{migrate::k_vscode_launch, &migrate::merge_vscode_launch}}) {
    TFWSL_TRY(before, files.read(record.linux_path, relative));
    TFWSL_TRY(merged, merge(before, record));
    out.push_back({std::move(merged), std::move(before)});
  }
  return out;
}

void print_plan(const std::vector<PlannedFile>& planned, const RunPlace& place, Console& console) {
  for (const auto& p : planned) {
    const std::string where = visible_text(place.record.linux_path) + "/" + p.merged.relative;
    if (!p.merged.text) console.out << "keep   " << where << " (it has what tfwsl would add)\n";
    for (const auto& change : p.merged.changes)
      console.out << (p.before ? "merge  " : "create ") << where << ": " << change << "\n";
    for (const auto& kept : p.merged.kept) console.out << "kept   " << where << ": " << kept << "\n";
  }
}

std::vector<std::string> code_command(const RunPlace& place) {
  if (place.here) return {"code", place.record.linux_path};
  // The WSL remote opens the folder inside the distro (code.visualstudio.com/docs/remote/wsl).
  return {"code", "--remote", "wsl+" + place.record.distro, place.record.linux_path};
}

int open_editor(const RunPlace& place, Console& console, Machine& machine) {
  ProcessRequest open;
  open.argv = code_command(place);
  auto started = machine.processes.run(open);
  if (!started || started->exit_code != 0) {
    console.err << "tfwsl code: VS Code could not be started ("
                << (started ? "exit " + std::to_string(started->exit_code) : started.error().describe())
                << "); fix: install VS Code and its WSL extension, then run: " << powershell_command(open.argv) << "\n";
    return exit_code::k_failure;
  }
  return exit_code::k_ok;
}

}  // namespace

int set_up_vscode(const VscodeRequest& request, Console& console, Machine& machine) {
  auto place = find_run_place(request.place, machine);
  if (!place) {
    console.err << "tfwsl code: " << place.error().describe() << "\n";
    return exit_code::k_run_refused;
  }
  auto agent = agent_path(request, machine);
  if (!agent) {
    console.err << "tfwsl code: " << agent.error().describe() << "\n";
    return exit_code::k_failure;
  }
  auto commands = make_distro_commands(place->record.distro, machine);
  DistroProjectFiles files(*commands, *agent);
  auto planned = plan_files(files, place->record);
  if (!planned) {
    console.err << "tfwsl code: " << planned.error().describe() << "\n";
    return exit_code::k_failure;
  }
  print_plan(*planned, *place, console);
  const bool changes =
      std::any_of(planned->begin(), planned->end(), [](const auto& p) { return p.merged.text.has_value(); });
  if (request.dry_run) {
    if (request.open) console.out << "then open: " << powershell_command(code_command(*place)) << "\n";
    return exit_code::k_ok;
  }
  if (changes) {
    auto consent = confirm_change(console, request.yes,
                                  "Write these into .vscode/ of " + visible_text(place->record.linux_path) + "?",
                                  "write .vscode/ in the WSL copy");
    if (!consent) {
      console.err << "tfwsl code: " << consent.error().describe() << "\n";
      return exit_code::k_failure;
    }
  }
  for (const auto& p : *planned) {
    if (!p.merged.text) continue;
    // Only while the file is what was read: an edit made meanwhile is never overwritten.
    const std::string expect = p.before ? content_hash(*p.before) : "absent";
    if (auto written = files.write(place->record.linux_path, p.merged.relative, *p.merged.text, expect); !written) {
      console.err << "tfwsl code: " << p.merged.relative << ": " << written.error().describe() << "\n";
      return exit_code::k_failure;
    }
  }
  return request.open ? open_editor(*place, console, machine) : exit_code::k_ok;
}

}  // namespace tfwsl::cli
