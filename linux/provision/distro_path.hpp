#pragma once
// Where the agent reads a path of the distro it provisions: the path itself on this machine (root
// "/"), else the same path under the probe root (TFWSL_PROBE_ROOT), which holds another machine's
// files. Reports keep naming the distro's path; only the reads go under the root.

#include <filesystem>
#include <string>

namespace tfwsl::provision {

inline bool observes_other_root(const std::filesystem::path& root) { return root != "/" && !root.empty(); }

// "/home/me/.venvs/tf" -> "/home/me/.venvs/tf" under "/", "<root>/home/me/.venvs/tf" otherwise.
inline std::filesystem::path distro_path_at(const std::filesystem::path& root, const std::string& distro_path) {
  if (!observes_other_root(root)) return distro_path;
  std::string relative = distro_path;
  while (!relative.empty() && relative.front() == '/') relative.erase(0, 1);
  return root / relative;
}

}  // namespace tfwsl::provision
