#pragma once
// `tfwsl doctor --data PATH`: whether a project or dataset the user names lies where TensorFlow
// reads it fast. Decided from the path's form, which is what decides the speed under WSL 2: a
// Windows drive (C:\data, or /mnt/c/data through the automount root) reaches the distro over
// drvfs/9p, many times slower for many small files than the distro's own ext4; a path inside the
// distro (\\wsl.localhost\Ubuntu\home\me\data, \\wsl$\..., /home/me/data) is on that ext4.
// docs/doctor.md, "data.location".

#include <string>
#include <vector>

#include "common/check/check.hpp"
#include "common/wsl/drive_path.hpp"

namespace tfwsl::doctor {

enum class DataPlace { windows_drive, distro, unknown };

// Where `path` is: a drive letter path, a /mnt/<letter>/ path (under `automount_root`, "/mnt/" by
// default), a \\wsl.localhost\ or \\wsl$\ path or another absolute Linux path; anything else unknown.
DataPlace data_place(const std::string& path, const std::string& automount_root = wsl::k_default_automount_root);

// data.location for the paths given: warn for the ones on a Windows drive, with `tfwsl data push`
// of the first as the fix (fix_command); ok when all are in the distro; skip when none was given.
CheckResult check_data_paths(const std::vector<std::string>& paths);

}  // namespace tfwsl::doctor
