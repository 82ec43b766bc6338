#pragma once
// Where a WSL 2 distro's virtual disk lies on the Windows host, from the registry the doctor reads
// (host::reg::k_lxss): each distro is a subkey {GUID} with DistributionName, BasePath (its folder,
// sometimes written with the \\?\ prefix) and VhdFileName (default ext4.vhdx); DefaultDistribution
// names the default one's GUID. The vhdx grows as the distro's filesystem fills, so the data pushed
// lands on the drive holding it.

#include <optional>
#include <string>

#include "common/core/error.hpp"
#include "win/host/registry.hpp"

namespace tfwsl::push {

struct VhdxLocation {
  std::string distro;     // DistributionName
  std::string base_path;  // BasePath without a \\?\ prefix: what the free-space query is asked about
  std::string vhdx_path;  // base_path\VhdFileName
};

// `distro` empty: the default distribution. not_found naming the distro (and the key) when the
// registry has no such entry or it has no BasePath.
Result<VhdxLocation> find_vhdx(const host::Registry& registry, const std::string& distro);

}  // namespace tfwsl::push
