// The `values` of the judge's verdicts: the versions and numbers their summaries quote, as fields
// (common/check/check.hpp), so a script reads "12.2.140" from values.version instead of parsing
// "CUDA toolkit 12.2.140 at /usr/local/cuda-12.2, the 12.2 series the profile wants".
// Kept apart from the verdicts so that a verdict's wording can change without touching what
// scripts read, and only facts the agent reported are written (an absent fact is an absent key).
// Each is named beside its verdict in the judge table (judge_table.cpp).
#include <algorithm>

#include "common/judge/verdict_parts.hpp"

namespace tfwsl::judge::detail {
namespace {

void put_text(nlohmann::json& values, const char* key, const std::string& text) {
  if (!text.empty()) values[key] = text;
}

}  // namespace

nlohmann::json toolkit_values(const LinuxFacts& f, const CheckPolicy& p) {
  nlohmann::json v = nlohmann::json::object();
  if (!f.stack.toolkits.empty()) {
    auto match = std::find_if(f.stack.toolkits.begin(), f.stack.toolkits.end(),
                              [&](const agent_api::CudaToolkit& t) { return in_series(t.version, p.cuda_toolkit); });
    const auto& shown = match != f.stack.toolkits.end() ? *match : f.stack.toolkits.front();
    v["version"] = shown.version;
    v["path"] = shown.path;
    nlohmann::json all = nlohmann::json::array();
    for (const auto& t : f.stack.toolkits) all.push_back(t.version);
    v["versions"] = std::move(all);
  }
  put_text(v, "wanted", p.cuda_toolkit);
  return v;
}

nlohmann::json cudnn_values(const LinuxFacts& f, const CheckPolicy& p) {
  nlohmann::json v = nlohmann::json::object();
  if (f.stack.cudnn_found && f.stack.cudnn_version)
    v["version"] = cudnn_version_from(*f.stack.cudnn_version).to_string();
  if (f.stack.cudnn_found) put_text(v, "library", f.stack.cudnn_library);
  if (!v.empty()) put_text(v, "wanted", p.cudnn);
  return v;
}

nlohmann::json python_values(const LinuxFacts& f, const CheckPolicy& p) {
  nlohmann::json v = nlohmann::json::object();
  put_text(v, "version", f.stack.python_version);
  put_text(v, "interpreter", f.stack.python_path);
  if (!v.empty()) put_text(v, "min", p.python_min), put_text(v, "max", p.python_max);
  return v;
}

nlohmann::json tf_values(const LinuxFacts& f, const CheckPolicy& p) {
  nlohmann::json v = nlohmann::json::object();
  if (f.tf.installed) put_text(v, "version", f.tf.version);
  if (!v.empty()) put_text(v, "wanted", p.tensorflow_version);
  return v;
}

nlohmann::json memory_values(const LinuxFacts& f, const std::optional<WindowsMemory>& windows_memory) {
  nlohmann::json v = nlohmann::json::object();
  if (!f.system.mem_total_kb) return v;
  v["mem_total_kb"] = *f.system.mem_total_kb;
  if (windows_memory && windows_memory->host_ram_bytes) v["host_ram_bytes"] = *windows_memory->host_ram_bytes;
  if (windows_memory && windows_memory->configured_bytes) v["configured_bytes"] = *windows_memory->configured_bytes;
  return v;
}

nlohmann::json disk_values(const LinuxFacts& f, const CheckPolicy& p) {
  if (!f.system.disk_free_bytes) return nlohmann::json::object();
  return {{"free_bytes", *f.system.disk_free_bytes},
          {"warn_below_bytes", p.disk_warn_bytes},
          {"fail_below_bytes", p.disk_fail_bytes}};
}

}  // namespace tfwsl::judge::detail
