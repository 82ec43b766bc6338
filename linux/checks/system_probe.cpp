#include <sys/statvfs.h>

#include <cerrno>
#include <cstring>
#include <sstream>

#include "linux/checks/file_text.hpp"
#include "linux/checks/probes.hpp"

namespace tfwsl::linux_checks {

std::vector<MountEntry> read_mounts(const ProbeEnvironment& env) {
  std::vector<MountEntry> out;
  std::istringstream in(read_text_file(env.at("/proc/mounts")).value_or(""));
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string device, point, type;
    if (!(fields >> device >> point >> type)) continue;
    // /proc/mounts escapes spaces as \040.
    std::string decoded;
    for (std::size_t i = 0; i < point.size(); ++i) {
      if (point[i] == '\\' && point.compare(i, 4, "\\040") == 0) {
        decoded += ' ';
        i += 3;
      } else {
        decoded += point[i];
      }
    }
    out.push_back({decoded, type});
  }
  return out;
}

MountEntry mount_of(const std::vector<MountEntry>& mounts, const std::string& path) {
  MountEntry best{"", ""};
  for (const auto& m : mounts) {
    const auto& p = m.mount_point;
    bool inside =
        path == p || p == "/" || (path.size() > p.size() && path.compare(0, p.size(), p) == 0 && path[p.size()] == '/');
    if (inside && p.size() >= best.mount_point.size()) best = m;
  }
  return best;
}

bool is_slow_fs(const std::string& fs_type) {
  return fs_type == "drvfs" || fs_type == "9p" || fs_type == "v9fs" || fs_type == "fuse.drvfs";
}

SystemFacts probe_system(const ProbeEnvironment& env) {
  SystemFacts f;
  std::istringstream in(read_text_file(env.at("/proc/meminfo")).value_or(""));
  std::string key;
  std::uint64_t value = 0;
  std::string unit;
  while (in >> key >> value) {
    std::getline(in, unit);
    if (key == "MemTotal:") {
      f.mem_total_kb = value;
      break;
    }
  }
  struct statvfs vfs {};
  if (statvfs(env.disk_path.c_str(), &vfs) == 0)
    f.disk_free_bytes = static_cast<std::uint64_t>(vfs.f_bavail) * vfs.f_frsize;
  else
    f.disk_error = env.disk_path.string() + ": " + std::strerror(errno);
  auto mounts = read_mounts(env);
  for (const auto& path : env.data_paths) {
    auto m = mount_of(mounts, path);
    f.data_paths.push_back({path, m.mount_point, m.fs_type, is_slow_fs(m.fs_type)});
  }
  return f;
}

}  // namespace tfwsl::linux_checks
