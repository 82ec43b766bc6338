#include "linux/agent/path_resolver.hpp"

#include <algorithm>
#include <optional>

#include "common/util/ascii.hpp"
#include "common/wsl/drive_path.hpp"

namespace tfwsl::agent {

namespace {

// Splits on '\' and '/', dropping empty and "." parts; ".." is refused (no climbing out of a mount).
Result<std::vector<std::string>> components(const std::string& rest, const std::string& original) {
  std::vector<std::string> out;
  std::string part;
  auto flush = [&]() -> bool {
    if (part == "..") return false;
    if (!part.empty() && part != ".") out.push_back(part);
    part.clear();
    return true;
  };
  for (char c : rest) {
    if (c == '\\' || c == '/') {
      if (!flush())
        return make_error(ErrorCode::invalid_input, "'" + original + "' contains '..': give the full path without it");
    } else {
      part.push_back(c);
    }
  }
  if (!flush())
    return make_error(ErrorCode::invalid_input, "'" + original + "' contains '..': give the full path without it");
  return out;
}

std::string join_path(std::string base, const std::vector<std::string>& parts) {
  for (const auto& p : parts) {
    if (base.empty() || base.back() != '/') base += '/';
    base += p;
  }
  return base.empty() ? "/" : base;
}

// Where the distro mounts a drive, by the one mapping the Windows side uses too (common/wsl),
// under the [automount] root of /etc/wsl.conf: "/mnt/" gives /mnt/d, "/windir" /windir/d, "/" /d.
// nullopt for a root that is not absolute.
std::optional<std::string> drive_mount_point(char drive, const std::string& automount_root) {
  auto mount_point = wsl::drive_path_in_distro(std::string(1, drive) + ":\\", automount_root);
  if (mount_point && mount_point->size() > 1) mount_point->pop_back();  // "/mnt/d/" -> "/mnt/d"
  return mount_point;
}

agent_api::PathResolveResponse describe(std::string linux_path, const PathContext& context) {
  agent_api::PathResolveResponse out;
  out.linux_path = std::move(linux_path);
  if (!context.mounts.empty()) {
    auto m = linux_checks::mount_of(context.mounts, out.linux_path);
    out.mount_type = m.fs_type;
    out.slow_mount = linux_checks::is_slow_fs(m.fs_type);
  }
  return out;
}

}  // namespace

Result<agent_api::PathResolveResponse> resolve_windows_path(const std::string& input, const PathContext& context) {
  if (input.empty())
    return make_error(ErrorCode::invalid_input, "windows_path is empty: give a full path such as C:\\data");
  if (input.size() > 4096) return make_error(ErrorCode::invalid_input, "windows_path is longer than 4096 bytes");
  if (std::any_of(input.begin(), input.end(), [](unsigned char c) { return c < 0x20; }))
    return make_error(ErrorCode::invalid_input, "windows_path contains control characters");
  std::string path = input;
  // \\?\C:\x and \\?\UNC\server\share: the Win32 long-path prefixes.
  if (path.rfind("\\\\?\\UNC\\", 0) == 0)
    path = "\\\\" + path.substr(8);
  else if (path.rfind("\\\\?\\", 0) == 0 || path.rfind("\\\\.\\", 0) == 0)
    path = path.substr(4);

  if (path.size() >= 2 && ascii_is_alpha(path[0]) && path[1] == ':') {
    const std::string drive_colon = path.substr(0, 2);
    if (!wsl::drive_letter_of(path))
      return make_error(ErrorCode::invalid_input, "'" + input + "' is relative to the current directory of drive " +
                                                      drive_colon + ": give the full path, e.g. " + drive_colon +
                                                      "\\data");
    TFWSL_TRY(parts, components(path.substr(3), input));
    auto mount_point = drive_mount_point(path[0], context.automount_root);
    if (!mount_point)
      return make_error(ErrorCode::invalid_input,
                        "the automount root '" + context.automount_root +
                            "' of /etc/wsl.conf is not an absolute path: fix its [automount] root");
    const std::string drive_name(1, ascii_upper(path[0]));
    if (!context.mounts.empty()) {
      bool mounted = std::any_of(context.mounts.begin(), context.mounts.end(),
                                 [&](const linux_checks::MountEntry& m) { return m.mount_point == *mount_point; });
      if (!mounted)
        return make_error(
            ErrorCode::not_found,
            "drive " + drive_name + ": is not mounted at " + *mount_point +
                " in this distro (a network or removable drive?)",
            "Mount it: sudo mkdir -p " + *mount_point + " && sudo mount -t drvfs " + drive_name + ": " + *mount_point);
    }
    return describe(join_path(*mount_point, parts), context);
  }

  bool unc = path.size() >= 2 && (path[0] == '\\' || path[0] == '/') && (path[1] == '\\' || path[1] == '/');
  if (unc) {
    TFWSL_TRY(parts, components(path.substr(2), input));
    if (parts.empty()) return make_error(ErrorCode::invalid_input, "'" + input + "' names no server");
    auto server = ascii_lower(parts[0]);
    if (server == "wsl$" || server == "wsl.localhost") {
      if (parts.size() < 2) return make_error(ErrorCode::invalid_input, "'" + input + "' names no distro");
      if (!context.distro.empty() && ascii_lower(parts[1]) != ascii_lower(context.distro))
        return make_error(ErrorCode::not_found,
                          "'" + input + "' is in distro '" + parts[1] + "', not in this one ('" + context.distro + "')",
                          "Ask the agent running in '" + parts[1] + "', or copy the data into this distro.");
      return describe(join_path("/", {parts.begin() + 2, parts.end()}), context);
    }
    const std::string z_mount = drive_mount_point('Z', context.automount_root).value_or("/mnt/z");
    return make_error(ErrorCode::not_found,
                      "'" + input + "' is on the network share \\\\" + parts[0] +
                          (parts.size() > 1 ? "\\" + parts[1] : "") + ", which is not mapped into this distro",
                      "Map the share to a drive letter in Windows (net use Z: \\\\" + parts[0] +
                          "\\...) and mount it: sudo mkdir -p " + z_mount + " && sudo mount -t drvfs Z: " + z_mount +
                          "; or copy the data to a local drive first.");
  }
  return make_error(
      ErrorCode::invalid_input,
      "'" + input + "' is not a full Windows path: start with a drive letter (C:\\...) or \\\\wsl$\\<distro>\\...");
}

}  // namespace tfwsl::agent
