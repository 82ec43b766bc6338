#pragma once
// The distro side of a Wine scenario (README.md): a fake WSL distro in a folder that the relayed
// tfwsl-agent observes through its probe root (TFWSL_PROBE_ROOT) instead of the build machine, and
// the proof that a doctor run leaves it, and every command it got, read-only.
//
// The folder is fake_distro/ (the template: a healthy Ubuntu 22.04 under WSL 2 with TensorFlow
// 2.15) plus the fake GPU libraries in /usr/lib/wsl/lib, changed by the scenario's relay.txt:
//   kernel = 4.4.0-19041-Microsoft   /proc/sys/kernel/osrelease and /proc/version
//   os = Ubuntu 18.04.6 LTS          /etc/os-release's PRETTY_NAME
//   without = dev/dxg                a path the distro lacks (repeatable)
//   gpus = 0                         devices libcuda and NVML report (0: cuInit says no device)
//   nvml-driver = 546.80             the driver version of the WSL libraries (NVML)
//   tf-version = 2.16.1              the TensorFlow stand-in's __version__

#include <filesystem>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace tfwsl::standin {

using Settings = std::vector<std::pair<std::string, std::string>>;

struct FakeDistro {
  std::filesystem::path root;
  std::map<std::string, std::string> env;  // for every relayed command (the relay prepends PATH)
};

// Builds the fake distro at `root` (which must not exist yet).
FakeDistro make_fake_distro(const std::filesystem::path& template_dir, const std::filesystem::path& fake_gpu_dir,
                            const std::filesystem::path& root, const Settings& settings);

// The environment of every relayed command in the distro at `root` (built by make_fake_distro).
std::map<std::string, std::string> fake_distro_environment(const std::filesystem::path& root, const Settings& settings);

// Every entry under `root`: relative path -> its type, permissions and bytes (or link target).
using TreeSnapshot = std::map<std::string, std::string>;
TreeSnapshot snapshot_tree(const std::filesystem::path& root);
// "added: x", "removed: y", "changed: z" (empty: byte-identical).
std::vector<std::string> tree_differences(const TreeSnapshot& before, const TreeSnapshot& after);

// The lines of the stand-in's invocation log (one per wsl.exe run, newlines escaped) that could
// change the machine: anything run as another user (-u/--user), install, tee, a redirection, or a
// file-changing program (cp, mv, rm, ln, dd, chmod, chown, mkdir, touch, sed -i), except the
// temporary copy of the shipped agent (mktemp, removed by an EXIT trap).
std::vector<std::string> changing_commands(const std::string& standin_log);

}  // namespace tfwsl::standin
