#include "common/provision/plan_downloads.hpp"
#include "common/provision/provision_plan.hpp"

namespace tfwsl::provision {
namespace {

nlohmann::json download_json(const std::optional<DownloadEstimate>& d) {
  if (!d) return nullptr;
  return {{"bytes", d->bytes ? nlohmann::json(*d->bytes) : nlohmann::json(nullptr)},
          {"approximate", d->approximate},
          {"basis", d->basis},
          {"detail", d->detail}};
}

nlohmann::json total_json(const DownloadTotal& total) {
  return {{"bytes", total.bytes}, {"approximate", total.approximate}, {"unknown_steps", total.unknown}};
}

}  // namespace

nlohmann::json to_json(const PlannedStep& step) {
  const auto& d = *step.definition;
  nlohmann::json commands = nlohmann::json::array();
  for (const auto& c : step.commands) commands.push_back({{"as", to_string(c.as)}, {"argv", c.argv}});
  nlohmann::json values = nlohmann::json::object();
  for (const auto& [k, v] : step.values) values[k] = v;
  return {{"id", std::string(d.id)},
          {"scope", to_string(d.scope)},
          {"runs_as", to_string(d.runs_as)},
          {"title", std::string(d.title)},
          {"why", std::string(d.why)},
          {"source", std::string(d.source)},
          {"check_only", d.check_only},
          {"packages", step.packages},
          {"commands", commands},
          {"values", values},
          {"changes", step.changes},
          {"download", download_json(step.download)}};
}

nlohmann::json plan_to_json(const ProvisionPlan& plan) {
  nlohmann::json env = nlohmann::json::object();
  for (const auto& [k, v] : plan.env) env[k] = v;
  nlohmann::json host = nlohmann::json::array();
  for (const auto& s : plan.host_steps) host.push_back(to_json(s));
  nlohmann::json distro = nlohmann::json::array();
  for (const auto& s : plan.distro_steps) distro.push_back(to_json(s));
  return {{"profile", plan.profile},
          {"distro", plan.distro},
          {"inside_wsl", plan.inside_wsl},
          {"user", plan.user},
          {"python", plan.python},
          {"venv", plan.venv},
          {"tensorflow", plan.tensorflow},
          {"env_file", plan.env_file},
          {"env", env},
          {"route", to_string(plan.route)},
          {"image", plan.image},
          {"notes", plan.notes},
          {"host_steps", host},
          {"distro_steps", distro},
          {"download", total_json(download_total(plan))}};
}

}  // namespace tfwsl::provision
