#pragma once
// How a WSL distro sees a file on a Windows drive: <automount root><drive letter>/<rest>, where the
// root is /etc/wsl.conf's [automount] root (default "/mnt/"; learn.microsoft.com/windows/wsl/wsl-config,
// "automount settings"). One mapping for every caller; the root is the caller's to ask the distro for.

#include <optional>
#include <string>
#include <string_view>

namespace tfwsl::wsl {

inline constexpr const char* k_default_automount_root = "/mnt/";

// ("C:\\Users\\me\\tfwsl\\tfwsl-agent", "/mnt/") -> "/mnt/c/Users/me/tfwsl/tfwsl-agent";
// ("D:/data", "/win") -> "/win/d/data". Accepts the \\?\ long-path prefix. nullopt for a path
// without a drive letter and separator (UNC shares, relative paths) or a root that is not absolute.
std::optional<std::string> drive_path_in_distro(std::string_view windows_path, std::string_view automount_root);

// The other way: ("/mnt/c/data/x", "/mnt/") -> "C:\\data\\x"; ("/mnt/d", "/mnt/") -> "D:\\";
// ("/d/x", "/") -> "D:\\x". nullopt for a path that is not a drive letter right under the root.
std::optional<std::string> windows_path_of_drive_mount(std::string_view linux_path, std::string_view automount_root);

// 'c' for "C:\\x" (also with the \\?\ prefix); nullopt without a drive letter and separator.
std::optional<char> drive_letter_of(std::string_view windows_path);

// The automount root from what `wslpath -u '<drive>:\'` printed: "/mnt/c/\n" -> "/mnt/",
// "/c" -> "/". nullopt when the answer is not that drive's mount point (an error text, empty).
std::optional<std::string> automount_root_from_wslpath(std::string_view answer, char drive);

}  // namespace tfwsl::wsl
