// The plan as the --dry-run --json object (docs/schema/migrate-plan.schema.json).
#include <algorithm>
#include <optional>
#include <string>

#include "win/migrate/migrate_plan.hpp"

namespace tfwsl::migrate {
namespace {

nlohmann::json tensorflow_json(const TfDecision& d) {
  nlohmann::json pins = nlohmann::json::array();
  for (const auto& p : d.pins)
    pins.push_back({{"package", p.package}, {"spec", p.spec}, {"file", p.file}, {"line", p.line}});
  return {{"spec", d.spec_as_written()},
          {"target", d.target ? nlohmann::json(d.target->series.to_string()) : nlohmann::json()},
          {"profile", d.target ? nlohmann::json(d.target->name) : nlohmann::json()},
          {"pins", pins}};
}

nlohmann::json requirements_json(const MigratePlan& plan) {
  const Translation& t = plan.translation;
  nlohmann::json files = nlohmann::json::array();
  nlohmann::json written = nlohmann::json::array();
  for (std::size_t i = 0; i < t.files.size(); ++i) {
    const auto& f = t.files[i];
    files.push_back(f.source);
    const char* action = i < plan.writes.size() ? to_string(plan.writes[i].action) : "create";
    written.push_back({{"from", f.source}, {"to", f.target}, {"changed", f.changed}, {"action", action}});
  }
  nlohmann::json dropped = nlohmann::json::array();
  nlohmann::json why = nlohmann::json::array();
  for (const auto& d : t.dropped) {
    if (std::find(dropped.begin(), dropped.end(), d.package) == dropped.end()) dropped.push_back(d.package);
    why.push_back({{"package", d.package}, {"file", d.file}, {"line", d.line}, {"reason", d.reason}});
  }
  nlohmann::json translated = nlohmann::json::array();
  for (const auto& tr : t.translated)
    translated.push_back({{"from", tr.from}, {"to", tr.to}, {"file", tr.file}, {"line", tr.line}});
  return {{"files", files}, {"written", written},       {"dropped", dropped}, {"dropped_reasons", why},
          {"kept", t.kept}, {"translated", translated}, {"added", t.added},   {"diff", t.diff}};
}

nlohmann::json keras_json(const MigratePlan& plan) {
  nlohmann::json apis = nlohmann::json::array();
  for (const auto& a : plan.scan.keras2_apis) apis.push_back({{"file", a.file}, {"line", a.line}, {"what", a.what}});
  nlohmann::json env = nlohmann::json::object();
  if (plan.decision.legacy_keras) env["TF_USE_LEGACY_KERAS"] = "1";
  return {{"legacy_needed", plan.decision.legacy_keras},
          {"env", env},
          {"keras2_apis", apis},
          {"imports_keras", plan.scan.imports_keras},
          {"uses_tf_keras", plan.scan.uses_tf_keras},
          {"imports_tensorflow", plan.scan.imports_tensorflow}};
}

nlohmann::json provision_json(const TfDecision& d) {
  if (!d.target) return nullptr;
  const auto& p = *d.target;
  return {{"profile", p.name},
          {"distro", p.distro},
          {"python", p.python},
          {"venv", p.venv},
          {"tensorflow", "tensorflow[and-cuda]==" + p.series.to_string() + ".*"}};
}

nlohmann::json datasets_json(const MigratePlan& plan, nlohmann::json& estimate) {
  nlohmann::json out = nlohmann::json::array();
  std::uint64_t files = 0, bytes = 0, seconds = 0;
  for (const auto& ds : plan.datasets) {
    out.push_back({{"windows_path", ds.windows_path},
                   {"linux_path", ds.linux_path},
                   {"source", ds.source},
                   {"files", ds.files},
                   {"bytes", ds.bytes},
                   {"estimated_seconds", ds.estimated_seconds}});
    files += ds.files;
    bytes += ds.bytes;
    seconds += ds.estimated_seconds;
  }
  estimate = {{"files", files}, {"bytes", bytes}, {"seconds", seconds}};
  return out;
}

nlohmann::json gpu_json(const GpuCheck& gpu) {
  nlohmann::json devices = nlohmann::json::array();
  for (const auto& g : gpu.reading.gpus)
    devices.push_back(
        {{"name", g.name}, {"compute_capability", std::to_string(g.major) + "." + std::to_string(g.minor)}});
  auto text_or_null = [](const std::optional<std::string>& s) { return s ? nlohmann::json(*s) : nlohmann::json(); };
  return {{"checked", gpu.reading.checked},
          {"not_checked", gpu.reading.checked ? nlohmann::json() : nlohmann::json(gpu.reading.not_checked)},
          {"devices", devices},
          {"stock_wheels", !gpu.judged ? nlohmann::json() : nlohmann::json(gpu.refused() ? "refused" : "ok")},
          {"summary", text_or_null(gpu.summary)},
          {"fix", text_or_null(gpu.fix)}};
}

nlohmann::json container_json(const std::optional<ContainerRoutePlan>& route) {
  if (!route) return nullptr;
  return {{"profile", route->profile},
          {"image", route->image},
          {"pinned", route->pinned},
          {"distro", route->distro},
          {"tensorflow", route->tensorflow},
          {"download_bytes", route->download_bytes ? nlohmann::json(*route->download_bytes) : nlohmann::json()},
          {"asked", route->asked},
          {"why", route->why},
          {"notes", route->notes}};
}

}  // namespace

nlohmann::json to_json(const MigratePlan& plan) {
  const TfDecision& d = plan.decision;
  nlohmann::json python = {{"project", d.python_project ? nlohmann::json(*d.python_project) : nlohmann::json()},
                           {"ok", d.python_ok ? nlohmann::json(*d.python_ok) : nlohmann::json()},
                           {"source", plan.scan.python ? nlohmann::json(plan.scan.python->file) : nlohmann::json()}};
  nlohmann::json paths = nlohmann::json::array();
  for (const auto& wp : plan.windows_paths) {
    nlohmann::json one = {{"path", wp.ref.path}, {"file", wp.ref.file}, {"line", wp.ref.line}, {"exists", wp.exists}};
    if (!wp.linux_path.empty()) one["linux_path"] = wp.linux_path;
    paths.push_back(std::move(one));
  }
  nlohmann::json estimate;
  nlohmann::json datasets = datasets_json(plan, estimate);
  return {{"decision", to_string(d.decision)},
          {"forced", plan.force},
          {"reasons", d.reasons},
          {"choices", d.choices},
          {"project",
           {{"name", plan.project_name}, {"linux_path", plan.project_linux_path}, {"source", plan.project_source}}},
          {"tensorflow", tensorflow_json(d)},
          {"python", python},
          {"requirements", requirements_json(plan)},
          {"keras", keras_json(plan)},
          {"provision", provision_json(d)},
          {"gpu", gpu_json(plan.gpu)},
          {"container_route", container_json(plan.container)},
          {"datasets", datasets},
          {"import_estimate", estimate},
          {"windows_paths", paths},
          {"path_map", {{"file", k_path_map_file}, {"paths", path_map_json(plan)}}},
          {"notes", plan.scan.notes},
          {"problems", plan.problems}};
}

}  // namespace tfwsl::migrate
