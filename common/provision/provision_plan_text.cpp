#include <fmt/format.h>

#include <cstddef>
#include <string>
#include <string_view>

#include "common/provision/plan_downloads.hpp"
#include "common/provision/provision_plan.hpp"
#include "common/util/shell_quote.hpp"
#include "common/util/text_wrap.hpp"
#include "common/util/visible_text.hpp"

namespace tfwsl::provision {
namespace {

// Quoted for the shell a person would type it in (common/util/shell_quote.hpp): the host's steps in
// PowerShell, the distro's in bash.
Shell shell_of(RunsAs who) { return who == RunsAs::host ? Shell::powershell : Shell::bash; }

std::string printed_command(RunsAs who, const std::vector<std::string>& argv) {
  return fmt::format("({}) {}", to_string(shell_of(who)), shell_command(shell_of(who), argv));
}

// A profile's values (packages, paths, names) shown visibly: the profile is a user's or a project's file.
std::string v(std::string_view text) { return visible_text(text); }

void render_steps(std::string& out, const std::vector<PlannedStep>& steps, int& number) {
  for (const auto& step : steps) {
    const auto& d = *step.definition;
    out += fmt::format("{:>2}. {:<19} {}\n", ++number, d.id, d.title);
    if (!step.packages.empty()) {
      std::string list;
      for (const auto& p : step.packages) list += (list.empty() ? "" : " ") + v(p);
      out += fmt::format("      packages: {}\n", list);
    }
    for (const auto& [key, value] : step.values) out += fmt::format("      {}: {}\n", v(key), v(value));
    for (const auto& c : step.commands)
      out += fmt::format("      run as {}: {}\n", to_string(c.as), printed_command(c.as, c.argv));
    if (step.download)
      out += fmt::format("      downloads: {}; {}\n", download_words(*step.download), v(step.download->detail));
    out += fmt::format("      changes: {}\n", v(step.changes));
  }
}

// What the plan sets up: the venv with its Python and TensorFlow, or the image the container runs.
std::string what_it_sets_up(const ProvisionPlan& plan) {
  if (plan.route == ProfileRoute::container)
    return fmt::format("image {}{}, run by podman", v(plan.image), plan.containerfile.empty() ? "" : " built here");
  return fmt::format("venv {} with {}, {}", v(plan.venv), v(plan.python), v(plan.tensorflow));
}

}  // namespace

std::string render_plan(const ProvisionPlan& plan) {
  std::string out = fmt::format("Plan for profile {} (distro {}, {}, {})\n", v(plan.profile), v(plan.distro),
                                plan.inside_wsl ? "inside WSL" : "native Linux", what_it_sets_up(plan));
  for (const auto& note : plan.notes) out += fmt::format("Note: {}\n", v(note));
  int number = 0;
  if (!plan.host_steps.empty()) {
    out += "Host steps (Windows, through wsl.exe):\n";
    render_steps(out, plan.host_steps, number);
  }
  out += fmt::format("Distro steps (the agent in {}; each is checked first and applied only when needed):\n",
                     v(plan.distro));
  render_steps(out, plan.distro_steps, number);
  out += fmt::format("Downloads in all: {}\n", download_total_words(download_total(plan)));
  return out;
}

std::string render_plan_summary(const ProvisionPlan& plan, std::string_view dry_run_command) {
  const std::size_t steps = plan.host_steps.size() + plan.distro_steps.size();
  return fmt::format(
      "Provisioning profile {} (distro {}, {}): {} steps, each checked first and "
      "applied only when needed; downloads: {}.\nThe plan step by step: {}\n",
      v(plan.profile), v(plan.distro), what_it_sets_up(plan), steps, download_total_words(download_total(plan)),
      dry_run_command);
}

std::vector<PrintedCommand> printed_commands(const ProvisionPlan& plan) {
  std::vector<PrintedCommand> commands;
  for (const auto* steps : {&plan.host_steps, &plan.distro_steps})
    for (const auto& step : *steps)
      for (const auto& c : step.commands) commands.push_back({shell_of(c.as), shell_command(shell_of(c.as), c.argv)});
  return commands;
}

}  // namespace tfwsl::provision
