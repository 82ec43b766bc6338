#include "win/push/vhdx_location.hpp"

#include "common/util/ascii.hpp"

namespace tfwsl::push {
namespace {

std::string without_long_path_prefix(std::string path) {
  if (path.rfind("\\\\?\\UNC\\", 0) == 0) return "\\\\" + path.substr(8);
  if (path.rfind("\\\\?\\", 0) == 0) return path.substr(4);
  return path;
}

std::optional<std::string> subkey_of(const host::Registry& registry, const std::string& distro) {
  const std::string root = host::reg::k_lxss;
  if (distro.empty()) {
    auto guid = registry.read_string(root, "DefaultDistribution");
    if (!guid) return std::nullopt;
    return root + "\\" + *guid;
  }
  for (const auto& sub : registry.subkeys(root)) {
    auto name = registry.read_string(root + "\\" + sub, "DistributionName");
    if (name && ascii_lower(*name) == ascii_lower(distro)) return root + "\\" + sub;
  }
  return std::nullopt;
}

}  // namespace

Result<VhdxLocation> find_vhdx(const host::Registry& registry, const std::string& distro) {
  const std::string which = distro.empty() ? "the default WSL distribution" : "distribution '" + distro + "'";
  auto key = subkey_of(registry, distro);
  if (!key)
    return make_error(ErrorCode::not_found,
                      "the registry (" + std::string(host::reg::k_lxss) + ") has no entry for " + which);
  auto base = registry.read_string(*key, "BasePath");
  if (!base || base->empty()) return make_error(ErrorCode::not_found, *key + " has no BasePath for " + which);
  VhdxLocation location;
  location.distro = registry.read_string(*key, "DistributionName").value_or(distro);
  location.base_path = without_long_path_prefix(*base);
  while (location.base_path.size() > 3 && (location.base_path.back() == '\\' || location.base_path.back() == '/'))
    location.base_path.pop_back();
  auto file = registry.read_string(*key, "VhdFileName").value_or("ext4.vhdx");
  location.vhdx_path = location.base_path + "\\" + (file.empty() ? "ext4.vhdx" : file);
  return location;
}

}  // namespace tfwsl::push
