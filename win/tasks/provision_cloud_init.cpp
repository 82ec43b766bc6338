#include "win/tasks/provision_cloud_init.hpp"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <regex>
#include <vector>

#include "common/provision/env_file.hpp"
#include "common/provision/provision_catalogue.hpp"

namespace tfwsl::cli {
namespace {

using provision::PlannedCommand;
using provision::PlannedStep;
using provision::ProvisionPlan;
using provision::RunsAs;

// useradd's default NAME_REGEX (Debian's adduser.conf is stricter still): what cloud-init can create.
bool is_user_name(const std::string& name) {
  static const std::regex k_name("[a-z_][a-z0-9_-]{0,31}");
  return std::regex_match(name, k_name);
}

// Every scalar double-quoted: an argv word such as "0644" or "yes" stays a string in YAML.
void emit_words(YAML::Emitter& out, const std::vector<std::string>& words) {
  out << YAML::Flow << YAML::BeginSeq;
  for (const auto& word : words) out << YAML::DoubleQuoted << word;
  out << YAML::EndSeq;
}

// As the agent runs it (linux/provision/step_apply_posix.cpp): root's commands with apt's
// environment, the user's as the user (runuser, with their HOME: pip's cache is theirs).
std::vector<std::string> runcmd_argv(const ProvisionPlan& plan, const PlannedCommand& command) {
  std::vector<std::string> argv = {"env"};
  if (command.as == RunsAs::user) {
    argv = {"runuser", "-u", plan.user, "--", "env", "HOME=/home/" + plan.user};
  } else {
    for (const auto& [key, value] : provision::apt_environment()) argv.push_back(key + "=" + value);
  }
  argv.insert(argv.end(), command.argv.begin(), command.argv.end());
  return argv;
}

// What the agent does itself before or instead of a step's commands, when a command can do it.
std::vector<std::vector<std::string>> agent_work(const ProvisionPlan& plan, const PlannedStep& step) {
  const std::string_view id = step.definition->id;
  if (id == "cuda.repository") return {{"mkdir", "-p", "/var/cache/tfwsl"}};  // the keyring's folder
  if (id == "env.file")  // the staged bytes put in place by the user: the folders on the way are theirs
    return {{"runuser", "-u", plan.user, "--", "install", "-D", "-m", "0644", k_cloud_init_env_stage, plan.env_file}};
  return {};
}

// Each step announced in cloud-init's output log (/var/log/cloud-init-output.log), then its commands.
void emit_step(YAML::Emitter& out, const ProvisionPlan& plan, const PlannedStep& step) {
  const auto work = agent_work(plan, step);
  const bool agent_only = step.commands.empty() && work.empty();
  emit_words(out, {"echo",
                   fmt::format("tfwsl provision: {}: {}{}", step.definition->id, step.definition->title,
                               agent_only ? " (the agent's own work: run tfwsl provision after the first boot)" : "")});
  for (const auto& argv : work) emit_words(out, argv);
  for (const auto& command : step.commands) emit_words(out, runcmd_argv(plan, command));
}

void emit_user(YAML::Emitter& out, const ProvisionPlan& plan) {
  out << YAML::Key << "users" << YAML::Value << YAML::BeginSeq << YAML::BeginMap;
  out << YAML::Key << "name" << YAML::Value << plan.user;
  out << YAML::Key << "groups" << YAML::Value << YAML::Flow << YAML::BeginSeq << "sudo" << YAML::EndSeq;
  out << YAML::Key << "shell" << YAML::Value << "/bin/bash";
  out << YAML::EndMap << YAML::EndSeq;
}

void emit_file(YAML::Emitter& out, const std::string& path, const std::string& content, bool append) {
  out << YAML::BeginMap << YAML::Key << "path" << YAML::Value << path;
  out << YAML::Key << "content" << YAML::Value << YAML::Literal << content;
  out << YAML::Key << "permissions" << YAML::Value << YAML::DoubleQuoted << "0644";
  if (append) out << YAML::Key << "append" << YAML::Value << true;
  out << YAML::EndMap;
}

}  // namespace

provision::PlanSettings cloud_init_plan_settings(const std::string& user) {
  provision::PlanSettings settings;
  settings.inside_wsl = true;
  settings.user = user;
  settings.home = "/home/" + user;
  return settings;
}

Result<std::string> cloud_init_user_data(const ProvisionPlan& plan) {
  if (!is_user_name(plan.user))
    return make_error(
        ErrorCode::invalid_input,
        fmt::format("--cloud-init needs the distro user that cloud-init creates, and '{}' is no user name: pass "
                    "--user NAME (lowercase letters, digits, '_' and '-', not starting with '-')",
                    plan.user));
  YAML::Emitter out;
  // All ASCII: a profile's text (an env value may hold a bidirectional override) reaches the
  // terminal escaped, and cloud-init's YAML reader gives back the exact bytes.
  out.SetOutputCharset(YAML::EscapeNonAscii);
  out << YAML::Comment(
      fmt::format("tfwsl provision --profile {} --cloud-init: the distro's steps, in the agent's order", plan.profile));
  out << YAML::BeginMap;
  emit_user(out, plan);
  // WSL logs in as the default user of /etc/wsl.conf (Ubuntu's WSL cloud-init examples append it).
  out << YAML::Key << "write_files" << YAML::Value << YAML::BeginSeq;
  emit_file(out, "/etc/wsl.conf", fmt::format("[user]\ndefault={}\n", plan.user), true);
  emit_file(out, k_cloud_init_env_stage, provision::env_file_text(plan), false);
  out << YAML::EndSeq;
  // runcmd's script is plain sh: stop at the first command that fails, as the agent stops at a failed step.
  out << YAML::Key << "runcmd" << YAML::Value << YAML::BeginSeq << "set -e";
  for (const auto& step : plan.distro_steps) emit_step(out, plan, step);
  out << YAML::EndSeq << YAML::EndMap;
  if (!out.good())
    return make_error(ErrorCode::internal, "the cloud-init user data could not be written", out.GetLastError());
  return std::string("#cloud-config\n") + out.c_str() + "\n";
}

}  // namespace tfwsl::cli
