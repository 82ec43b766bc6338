// What applying a plan leaves in the project's WSL copy: tfwsl.yaml (its profile) and MIGRATION.md.
#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include "common/provision/provision_catalogue.hpp"
#include "common/util/plural.hpp"
#include "common/util/shell_quote.hpp"
#include "common/util/visible_text.hpp"
#include "win/migrate/apply_plan.hpp"

namespace tfwsl::migrate {
namespace {

// A name for a comment line: a line break in it would end the comment.
// For a comment: one line, and no control character (a NUL would also end the emitter's c_str()).
std::string one_line(std::string text) {
  for (char& c : text)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) c = ' ';
  return text;
}

std::string dataset_name(const std::string& linux_path) {
  auto slash = linux_path.find_last_of('/');
  return slash == std::string::npos ? linux_path : linux_path.substr(slash + 1);
}

// A profile name allows letters, digits, '.', '_' and '-' (64 at most; the profile validator): the
// project's folder name with anything else made '-'.
std::string profile_name_for(const std::string& project) {
  std::string out;
  for (char c : project) {
    const bool ok =
        (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-';
    out += ok ? c : '-';
  }
  if (out.size() > 64) out.resize(64);
  return out.find_first_not_of("-.") == std::string::npos ? std::string("project") : out;
}

}  // namespace

ContainerRunCommands how_to_run_in_container(const MigratePlan& plan) {
  const MainEntry main = main_entry(plan.scan);
  provision::ContainerRun run;
  run.image = plan.container->pinned;
  run.env = plan.container->env;
  // The project and the imported datasets at their own paths, so the paths in the code hold.
  run.mounts = {plan.project_linux_path + ":" + plan.project_linux_path};
  for (const auto& ds : plan.datasets) run.mounts.push_back(ds.linux_path + ":" + ds.linux_path);
  run.mounts.insert(run.mounts.end(), plan.container->mounts.begin(), plan.container->mounts.end());
  run.workdir = plan.project_linux_path;
  run.command = {"python"};
  if (main.empty())
    run.command.insert(run.command.end(), {"-c", "import tensorflow as tf; print(tf.config.list_physical_devices())"});
  else if (main.module.empty())
    run.command.push_back(main.script);
  else
    run.command.insert(run.command.end(), {"-m", main.module});
  const auto argv = provision::container_run_argv(run);
  for (const std::string& word : argv)
    if (needs_visible_text(word)) return {command_not_shown(word), command_not_shown(word)};
  std::vector<std::string> wsl{"wsl", "-d", plan.container->distro, "--exec"};
  wsl.insert(wsl.end(), argv.begin(), argv.end());
  return {shell_command(Shell::bash, argv), powershell_command(wsl)};
}

RunCommands how_to_run(const MigratePlan& plan) {
  const ShippedProfile& target = *plan.decision.target;
  const MainEntry main = main_entry(plan.scan);
  // What bash -lc runs, quoted for bash (a project or module name is text, never code); a login
  // shell (bash -l) expands the venv's leading ~. A main file that is not an importable module
  // name (train-model.py, 1_train.py) runs by its path.
  const std::vector<std::string> python_args =
      main.empty() ? std::vector<std::string>{"-c", "import tensorflow as tf; print(tf.config.list_physical_devices())"}
      : main.module.empty() ? std::vector<std::string>{main.script}
                            : std::vector<std::string>{"-m", main.module};
  // Keras 2 code on a Keras 3 TensorFlow needs tf-keras chosen before TensorFlow loads (keras.io/getting_started).
  // The lines nest words (the python line inside bash -lc inside wsl): a word no line can show both
  // safely and runnable (a main file named with an escape sequence) replaces every line.
  std::vector<std::string> words = python_args;
  words.insert(words.end(), {target.venv, target.distro, plan.project_linux_path});
  for (const std::string& word : words)
    if (needs_visible_text(word))
      return {command_not_shown(word), command_not_shown(word), command_not_shown(word), command_not_shown(word),
              command_not_shown(word)};
  const std::string env = plan.decision.legacy_keras ? "TF_USE_LEGACY_KERAS=1 " : "";
  const std::string inner =
      env + bash_quote_keeping_home(target.venv + "/bin/python") + " " + bash_command(python_args);
  // wsl.exe's --cd takes an absolute Linux path (learn.microsoft.com/windows/wsl/basic-commands).
  const std::vector<std::string> wsl{"wsl",    "-d",   target.distro, "--cd", plan.project_linux_path,
                                     "--exec", "bash", "-lc",         inner};
  const std::vector<std::string> code{"code", "--remote", "wsl+" + target.distro, plan.project_linux_path};
  // tfwsl run finds the project from its folder and sets the venv and the environment itself.
  std::vector<std::string> tfwsl_run{"tfwsl", "run", "python"};
  tfwsl_run.insert(tfwsl_run.end(), python_args.begin(), python_args.end());
  return {powershell_command(wsl), shell_command(Shell::cmd, wsl),
          "cd " + bash_quote_keeping_home(plan.project_linux_path) + " && " + inner, powershell_command(code),
          powershell_command(tfwsl_run)};
}

// Written by yaml-cpp's emitter, never by formatting strings: a folder named `set #2, v{1}` or a
// path with quotes stays one scalar.
std::string project_profile_yaml(const MigratePlan& plan) {
  const ShippedProfile& target = *plan.decision.target;
  YAML::Emitter out;
  out << YAML::Comment(
      fmt::format("The profile of {}, written by tfwsl migrate (docs/profiles.md). Change it, then `tfwsl provision "
                  "--profile tfwsl.yaml`.",
                  one_line(plan.project_name)));
  out << YAML::BeginMap;
  out << YAML::Key << "extends" << YAML::Value << "builtin:" + target.name;
  out << YAML::Key << "name" << YAML::Value << profile_name_for(plan.project_name);
  if (target.user_distro) {  // the installed distro migrate chose over the profile's (distro_choice.hpp)
    out << YAML::Key << "distro" << YAML::Value << target.distro;
    out << YAML::Key << "python" << YAML::Value << YAML::BeginMap;
    out << YAML::Key << "version" << YAML::Value << YAML::DoubleQuoted << target.python << YAML::EndMap;
  }
  if (plan.decision.legacy_keras) {
    out << YAML::Key << "env" << YAML::Value << YAML::BeginMap;
    out << YAML::Key << "TF_USE_LEGACY_KERAS" << YAML::Value << YAML::DoubleQuoted << "1" << YAML::EndMap;
  }
  if (!plan.datasets.empty()) {
    out << YAML::Key << "datasets" << YAML::Value << YAML::BeginSeq;
    for (const auto& ds : plan.datasets) {
      out << YAML::BeginMap << YAML::Key << "name" << YAML::Value << dataset_name(ds.linux_path);
      out << YAML::Key << "source" << YAML::Value << YAML::SingleQuoted << ds.windows_path << YAML::EndMap;
    }
    out << YAML::EndSeq;
  }
  out << YAML::EndMap;
  return std::string(out.c_str(), out.size()) + "\n";
}

std::string migration_report(const MigratePlan& plan, const std::vector<StepResult>& steps) {
  const ShippedProfile& target = *plan.decision.target;
  std::string out = fmt::format(
      "# Migration of {}\n\nWritten by `tfwsl migrate`. Decision: **{}**, profile `{}` (TensorFlow {}, {}, Python "
      "{}).\n\n## Why\n\n",
      plan.project_name, to_string(plan.decision.decision), target.name, target.series.to_string(), target.distro,
      target.python);
  for (const auto& r : plan.decision.reasons) out += "- " + r + "\n";
  out += "\n## Requirements\n\n";
  for (const auto& t : plan.translation.translated)
    out += fmt::format("- `{}` -> `{}` ({}:{})\n", t.from, t.to, t.file, t.line);
  for (const auto& d : plan.translation.dropped)
    out += fmt::format("- dropped `{}` ({}:{}): {}\n", d.package, d.file, d.line, d.reason);
  for (const auto& a : plan.translation.added) out += fmt::format("- added `{}`\n", a);
  if (plan.decision.legacy_keras)
    out += "- `TF_USE_LEGACY_KERAS=1` is set in tfwsl.yaml's env: Keras 2 code on a Keras 3 TensorFlow\n";
  if (!plan.datasets.empty()) {
    out += fmt::format("\n## Data\n\nThe code's Windows paths map to these in `{}` (the code is not rewritten):\n\n",
                       k_path_map_file);
    for (const auto& ds : plan.datasets)
      out += fmt::format("- `{}` -> `{}` ({})\n", ds.windows_path, ds.linux_path, plural(ds.files, "file", "files"));
  }
  out += "\n## Steps\n\n";
  for (const auto& s : steps) out += fmt::format("- {}: {}\n", s.step, s.ran ? s.detail : "done by an earlier run");
  const RunCommands run = how_to_run(plan);
  out += fmt::format(
      "\n## Run it\n\nWith tfwsl, from the project's folder on Windows (PowerShell or cmd.exe) or from this copy in "
      "WSL:\n\n    {}\n\n"
      "`tfwsl run` finds this copy, the distro and the venv itself, sets the environment above, and translates the "
      "Windows paths in its arguments; `tfwsl shell` opens a shell with the venv active; `tfwsl run --where` prints "
      "the interpreter an editor's WSL setting asks for.\n\n"
      "Without tfwsl, from Windows, in PowerShell:\n\n    {}\n\nin cmd.exe:\n\n    {}\n\nIn a WSL terminal "
      "(bash):\n\n    {}\n\n"
      "In VS Code (from PowerShell):\n\n    {}\n\n"
      "## Which side is the source\n\n"
      "The Windows folder stays the source: edit there, then run `tfwsl migrate` on it again, which brings the "
      "changed files across with the same rules (a file changed here in WSL is never replaced without asking; a "
      "file changed on both sides is reported) and re-checks the environment. To make this copy the source, edit "
      "only here (VS Code above) and stop running migrate on the Windows folder.\n",
      run.tfwsl, run.wsl, run.wsl_cmd, run.in_wsl, run.vscode);
  return out;
}

}  // namespace tfwsl::migrate
