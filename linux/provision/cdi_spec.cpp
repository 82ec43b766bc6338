#include "linux/provision/cdi_spec.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <system_error>

#include "common/util/yaml_document.hpp"
#include "linux/checks/file_text.hpp"
#include "linux/provision/distro_path.hpp"

namespace tfwsl::provision {
namespace {

constexpr const char* k_driver_stores = "/usr/lib/wsl/drivers";
constexpr std::size_t k_max_spec_bytes = 1 << 20;

// The driver-store folder a path lies in ("/usr/lib/wsl/drivers/nv_x/libcuda.so.1.1" -> its
// folder), or "" for any other path.
std::string store_of(const std::string& path) {
  const std::string prefix = std::string(k_driver_stores) + "/";
  if (path.rfind(prefix, 0) != 0) return {};
  const auto end = path.find('/', prefix.size());
  return end == std::string::npos ? std::string() : path.substr(0, end);
}

// The host paths one containerEdits block makes the engine open: mounts' hostPath, device nodes'
// hostPath (else their path: the host's own node).
void collect_paths(const YAML::Node& edits, std::vector<std::string>& paths) {
  if (!edits.IsMap()) return;
  for (const auto& mount : edits["mounts"])
    if (auto host = yaml_scalar(mount["hostPath"])) paths.push_back(*host);
  for (const auto& node : edits["deviceNodes"]) {
    auto host = yaml_scalar(node["hostPath"]);
    if (!host || host->empty()) host = yaml_scalar(node["path"]);
    if (host) paths.push_back(*host);
  }
}

bool defines_all(const YAML::Node& spec) {
  if (yaml_scalar(spec["kind"]).value_or("") != "nvidia.com/gpu") return false;
  for (const auto& device : spec["devices"])
    if (yaml_scalar(device["name"]).value_or("") == "all") return true;
  return false;
}

CdiSpecState unreadable(CdiSpecState state, std::string why) {
  state.verdict = CdiSpecVerdict::unreadable;
  state.message = std::move(why);
  return state;
}

// Stale when a path it mounts is gone, or when it names no path in the driver store WSL shares now.
void judge_paths(CdiSpecState& state, const std::filesystem::path& root, const std::vector<std::string>& paths) {
  std::error_code ec;
  for (const auto& path : paths) {
    if (!std::filesystem::exists(distro_path_at(root, path), ec)) state.missing_paths.push_back(path);
    const std::string store = store_of(path);
    if (!store.empty() &&
        std::find(state.spec_stores.begin(), state.spec_stores.end(), store) == state.spec_stores.end())
      state.spec_stores.push_back(store);
  }
  const bool names_current = state.driver_store.empty() || std::find(state.spec_stores.begin(), state.spec_stores.end(),
                                                                     state.driver_store) != state.spec_stores.end();
  if (state.missing_paths.empty() && names_current) {
    state.verdict = CdiSpecVerdict::current;
    state.message = state.driver_store.empty()
                        ? "present; it names no driver-store folder and WSL shares none"
                        : "current: it names the driver store WSL shares now, " + state.driver_store;
    return;
  }
  state.verdict = CdiSpecVerdict::stale;
  state.message =
      fmt::format("stale: it names {} but the driver WSL shares now is in {} (a Windows driver update moves it){}",
                  state.spec_stores.empty() ? std::string("no driver-store folder")
                                            : fmt::format("{}", fmt::join(state.spec_stores, ", ")),
                  state.driver_store.empty() ? std::string("no driver-store folder") : state.driver_store,
                  state.missing_paths.empty() ? std::string()
                                              : fmt::format("; {} of the paths it mounts are gone, e.g. {}",
                                                            state.missing_paths.size(), state.missing_paths.front()));
}

}  // namespace

const char* to_string(CdiSpecVerdict verdict) {
  switch (verdict) {
    case CdiSpecVerdict::missing:
      return "missing";
    case CdiSpecVerdict::unreadable:
      return "unreadable";
    case CdiSpecVerdict::stale:
      return "stale";
    case CdiSpecVerdict::current:
      break;
  }
  return "current";
}

std::string current_driver_store(const std::filesystem::path& root) {
  std::error_code ec;
  std::vector<std::string> stores;
  for (const auto& entry : std::filesystem::directory_iterator(distro_path_at(root, k_driver_stores), ec))
    if (std::filesystem::exists(entry.path() / "libcuda.so.1.1", ec))
      stores.push_back(std::string(k_driver_stores) + "/" + entry.path().filename().string());
  std::sort(stores.begin(), stores.end());
  return stores.empty() ? std::string() : stores.front();
}

CdiSpecState read_cdi_spec_state(const std::filesystem::path& root, const std::string& spec) {
  CdiSpecState state;
  state.driver_store = current_driver_store(root);
  std::error_code ec;
  const auto file = distro_path_at(root, spec);
  if (!std::filesystem::exists(std::filesystem::symlink_status(file, ec))) {
    state.message = spec + " does not exist";
    return state;
  }
  const auto text = linux_checks::read_text_file(file, k_max_spec_bytes + 1);
  if (!text || text->size() > k_max_spec_bytes) return unreadable(state, spec + " cannot be read, or is over 1 MiB");
  auto parsed = parse_yaml_document(*text, spec);
  if (!parsed) return unreadable(state, parsed.error().message);
  if (!parsed->IsMap() || !defines_all(*parsed))
    return unreadable(state, spec + " defines no device nvidia.com/gpu=all");
  std::vector<std::string> paths;
  collect_paths((*parsed)["containerEdits"], paths);
  for (const auto& device : (*parsed)["devices"]) collect_paths(device["containerEdits"], paths);
  judge_paths(state, root, paths);
  return state;
}

}  // namespace tfwsl::provision
