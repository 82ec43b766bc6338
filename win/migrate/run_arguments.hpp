#pragma once
// The Windows paths in a `tfwsl run` command line, made the Linux paths the command sees in the WSL
// copy (docs/cli.md, "tfwsl run"): a path the project's path map knows (tfwsl-paths.json: a dataset
// imported to ~/datasets), a path in the project on Windows (its WSL copy), else any drive path
// through the drive mount (C:\x -> /mnt/c/x), and \\wsl$\DISTRO\... or \\wsl.localhost\DISTRO\...
// of the project's distro. A Windows path that none of these reaches (another machine's share,
// another distro) is refused by name: never passed on half translated. Words that are not Windows
// paths (relative paths, Linux paths, options) are left as they are; `--opt=C:\x` is translated after
// its `=`.

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/core/error.hpp"

namespace tfwsl::migrate {

struct PathPlace {
  std::string windows_root;                     // the project as migrate read it ("C:\\work\\x" or "/mnt/c/work/x")
  std::string linux_root;                       // its WSL copy
  std::map<std::string, std::string> path_map;  // Windows path -> Linux path
  std::string drive_root = "/mnt/";             // where the distro mounts the drives
  std::string distro;                           // the distro the command runs in
};

struct TranslatedWord {
  std::string from;
  std::string to;
};

struct TranslatedArguments {
  std::vector<std::string> argv;
  std::vector<TranslatedWord> translated;  // each word that changed, in order
};

// Errors: invalid_input naming the first Windows path no rule reaches, and why.
Result<TranslatedArguments> translate_arguments(const std::vector<std::string>& args, const PathPlace& place);

// The Linux path of one Windows path; nothing when `word` is no Windows path (C:\, C:/, \\server\).
Result<std::optional<std::string>> linux_path_of(std::string_view word, const PathPlace& place);

// The folder of the WSL copy that matches `folder`, a folder in the project on this side (the run's
// working folder: a subfolder of the project on Windows runs in the same subfolder of the copy);
// the copy's root when `folder` is not in the project.
std::string copy_folder_for(const std::string& folder, const PathPlace& place);

}  // namespace tfwsl::migrate
