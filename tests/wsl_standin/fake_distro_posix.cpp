#include "tests/wsl_standin/fake_distro_posix.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <regex>
#include <sstream>

namespace tfwsl::standin {
namespace fs = std::filesystem;

namespace {

std::string read_bytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void write_bytes(const fs::path& p, const std::string& bytes) {
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary | std::ios::trunc) << bytes;
}

// The build machine's python3, found before the fake distro's own is first on PATH.
std::string host_python() {
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path ? path : "/usr/bin");
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    auto candidate = fs::path(dir) / "python3";
    if (!dir.empty() && ::access(candidate.c_str(), X_OK) == 0) return candidate.string();
  }
  return "/usr/bin/python3";
}

// wslpath -u 'X:\rest' as a distro with WSL's default automount root answers: /mnt/x/rest.
const char* k_wslpath =
    "#!/bin/sh\n"
    "# The fake distro's wslpath: WSL's default automount root (/mnt/).\n"
    "[ \"$1\" = -u ] || exit 1\n"
    "drive=$(printf '%s' \"$2\" | cut -c1 | tr 'A-Z' 'a-z')\n"
    "rest=$(printf '%s' \"$2\" | cut -c3- | tr '\\\\' '/')\n"
    "printf '/mnt/%s%s\\n' \"$drive\" \"$rest\"\n";

void set_kernel(const fs::path& root, const std::string& kernel) {
  write_bytes(root / "proc/sys/kernel/osrelease", kernel + "\n");
  write_bytes(root / "proc/version",
              "Linux version " + kernel + " (Microsoft@Microsoft.com) (gcc version 5.4.0 (GCC) ) #1 SMP\n");
}

void set_pretty_name(const fs::path& root, const std::string& name) {
  auto text = read_bytes(root / "etc/os-release");
  text = std::regex_replace(text, std::regex("PRETTY_NAME=\"[^\"]*\""), "PRETTY_NAME=\"" + name + "\"");
  write_bytes(root / "etc/os-release", text);
}

}  // namespace

std::map<std::string, std::string> fake_distro_environment(const fs::path& root, const Settings& settings) {
  std::map<std::string, std::string> env = {{"TFWSL_PROBE_ROOT", root.string()},
                                            {"PATH", (root / "usr/bin").string()},
                                            {"TMPDIR", (root / "tmp").string()},
                                            {"TFWSL_STANDIN_HOST_PYTHON", host_python()}};
  for (const auto& [key, value] : settings) {
    if (key == "gpus") env["TFWSL_FAKE_GPU_COUNT"] = value;
    if (key == "nvml-driver") env["TFWSL_FAKE_DRIVER"] = value;
    if (key == "tf-version") env["TFWSL_FAKE_TF_VERSION"] = value;
    if (key == "gpu-name") env["TFWSL_FAKE_GPU_NAME"] = value;
    if (key == "compute-capability") env["TFWSL_FAKE_CC"] = value;
    if (key == "python-version") env["TFWSL_FAKE_PYTHON_VERSION"] = value;
  }
  return env;
}

FakeDistro make_fake_distro(const fs::path& template_dir, const fs::path& fake_gpu_dir, const fs::path& root,
                            const Settings& settings) {
  fs::copy(template_dir, root, fs::copy_options::recursive | fs::copy_options::copy_symlinks);
  fs::create_directories(root / "usr/lib/wsl/lib");
  for (const char* lib : {"libcuda.so.1", "libnvidia-ml.so.1"})
    fs::copy_file(fake_gpu_dir / lib, root / "usr/lib/wsl/lib" / lib);
  write_bytes(root / "usr/bin/wslpath", k_wslpath);
  fs::permissions(root / "usr/bin/wslpath", fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                                                fs::perms::others_read | fs::perms::others_exec);
  // The distro's /tmp: the temporary copy of a noexec shipped agent goes there, and must be gone after.
  fs::create_directories(root / "tmp");
  for (const auto& [key, value] : settings) {
    if (key == "kernel") set_kernel(root, value);
    if (key == "os") set_pretty_name(root, value);
    if (key == "without") fs::remove_all(root / value);
  }
  return FakeDistro{root, fake_distro_environment(root, settings)};
}

TreeSnapshot snapshot_tree(const fs::path& root) {
  TreeSnapshot snapshot;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(root, ec); it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    const auto& entry = *it;
    auto relative = entry.path().lexically_relative(root).string();
    auto status = entry.symlink_status(ec);
    std::string value = std::to_string(static_cast<int>(status.type())) + " " +
                        std::to_string(static_cast<unsigned>(status.permissions())) + " ";
    if (fs::is_symlink(status))
      value += fs::read_symlink(entry.path(), ec).string();
    else if (fs::is_regular_file(status))
      value += read_bytes(entry.path());
    snapshot[relative] = value;
  }
  return snapshot;
}

std::vector<std::string> tree_differences(const TreeSnapshot& before, const TreeSnapshot& after) {
  std::vector<std::string> out;
  for (const auto& [path, value] : after) {
    auto it = before.find(path);
    if (it == before.end())
      out.push_back("added: " + path);
    else if (it->second != value)
      out.push_back("changed: " + path);
  }
  for (const auto& [path, value] : before)
    if (!after.count(path)) out.push_back("removed: " + path);
  return out;
}

std::vector<std::string> changing_commands(const std::string& standin_log) {
  static const std::regex as_other_user(R"((^| )(-u|--user) )");
  static const std::regex changer(R"((^|[ ;&|(])(install|tee|cp|mv|rm|ln|dd|chmod|chown|mkdir|touch|sed -i)( |$))");
  static const std::regex redirection(R"([^2]>|>>)");
  std::vector<std::string> out;
  std::istringstream lines(standin_log);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.rfind("wsl.exe ", 0) != 0) continue;
    auto exec = line.find(" --exec ");
    const std::string options = line.substr(0, exec == std::string::npos ? line.size() : exec + 1);
    const std::string command = exec == std::string::npos ? "" : line.substr(exec + 8);
    // The temporary copy: made by mktemp and removed by the shell's EXIT trap (wsl_agent_host.hpp).
    const bool temp_copy =
        command.rfind("sh -c t=$(mktemp ", 0) == 0 && command.find("trap 'rm -f \"$t\"' EXIT") != std::string::npos;
    if (std::regex_search(options, as_other_user) ||
        (!temp_copy && (std::regex_search(command, changer) || std::regex_search(command, redirection))))
      out.push_back(line);
  }
  return out;
}

}  // namespace tfwsl::standin
