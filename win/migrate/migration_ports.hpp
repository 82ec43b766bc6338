#pragma once
// What applying a migration plan needs from the world, one call per effect, so that the executor
// (apply_plan.hpp) is plain logic: provisioning (`tfwsl provision`), the dataset engine's verified
// copy (project and datasets), pip in the profile's venv, the GPU check, and files in the distro.
// Every call must be idempotent on its own (a second provision of the same profile, a second
// copy of a complete tree, change nothing); the executor adds the record of finished steps.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "common/core/error.hpp"
#include "win/migrate/tf_decision.hpp"

namespace tfwsl::migrate {

struct CopyRequest {
  std::string source;             // a Windows folder: "C:\\work\\flowers"
  std::string target;             // a Linux folder: "~/projects/flowers"
  std::vector<std::string> skip;  // folder names not copied: ".venv", "__pycache__" (".git" only when asked)
};

struct CopyOutcome {
  std::uint64_t files = 0;
  std::uint64_t bytes = 0;
  std::uint64_t problems = 0;  // files the engine reported (vanished, unreadable, changed)
};

struct FileDigest {
  std::uint64_t size = 0;
  std::string hash;   // common/util/content_hash.hpp: XXH3-128 (of a link: of its target's text)
  bool link = false;  // a symlink in the WSL copy, as itself
  bool operator==(const FileDigest&) const = default;
};
using FileManifest = std::map<std::string, FileDigest>;  // relative '/'-path -> digest

// One file to move from the staged copy into the WSL copy, only while the WSL copy still holds
// `expect` there: "absent" (nothing) or the hash it had when migrate judged it.
struct PlaceRequest {
  std::string path;
  std::string expect = "absent";
};

struct PlaceOutcome {
  FileManifest placed;
  std::vector<std::pair<std::string, std::string>> refused;  // path, why (it changed meanwhile)
};

// The project's main file as the check runs it: a module name when the file's path is one
// ("train", "pkg.model"), else the script's path ("train-model.py", "1_train.py").
struct MainEntry {
  std::string module;
  std::string script;
  bool empty() const { return module.empty() && script.empty(); }
};

class MigrationPorts {
 public:
  virtual ~MigrationPorts() = default;
  // What was done ("already provisioned: 17 checks ok", "3 steps changed").
  virtual Result<std::string> provision(const ShippedProfile& profile) = 0;
  virtual Result<CopyOutcome> copy_tree(const CopyRequest& request) = 0;
  // pip install -r each file (paths inside the Linux project), in the profile's venv, when the venv
  // does not meet them already; what was done.
  virtual Result<std::string> install_requirements(const ShippedProfile& profile, const std::string& linux_project,
                                                   const std::vector<std::string>& files,
                                                   const std::vector<std::string>& extra) = 0;
  // Whether the venv already meets the files and extras (pip is not run): nothing, or what is unmet.
  virtual Result<std::optional<std::string>> requirements_unmet(const ShippedProfile& profile,
                                                                const std::string& linux_project,
                                                                const std::vector<std::string>& files,
                                                                const std::vector<std::string>& extra) = 0;
  // Whether the venv's python starts (a cheap re-check of provisioning): nothing, or why not.
  virtual std::optional<std::string> venv_broken(const ShippedProfile& profile) = 0;
  // The TensorFlow GPU check, then the main module imported (or script run) from the project folder.
  virtual Result<std::string> check_gpu_and_import(const ShippedProfile& profile, const std::string& linux_project,
                                                   const MainEntry& entry, const std::vector<std::string>& env) = 0;
  // The distro user's home ("/home/me"): the generated files name absolute Linux paths.
  virtual Result<std::string> linux_home() = 0;
  // Whether a Linux folder exists (a dataset's import, re-checked).
  virtual bool linux_folder_exists(const std::string& linux_path) = 0;
  // Files in the project's WSL copy `root` ("~/projects/x"), beneath it and never through a link
  // (tfwsl-agent project): written whole, only where `expect` holds ("any", "absent", a hash).
  virtual Status write_linux_file(const std::string& root, const std::string& relative, const std::string& text,
                                  const std::string& expect) = 0;
  virtual Result<std::optional<std::string>> read_linux_file(const std::string& root, const std::string& relative) = 0;
  // Every regular file beneath root (not .tfwsl); nothing when the folder is not there.
  virtual Result<std::optional<FileManifest>> linux_manifest(const std::string& root) = 0;
  // Moves staged files into root (each only while `expect` holds), then removes the staged copy.
  virtual Result<PlaceOutcome> place_files(const std::string& staging, const std::string& root,
                                           const std::vector<PlaceRequest>& requests) = 0;
  // Beside the user's files on Windows (translated requirements): never over one of theirs (a file
  // there must carry migrate's mark, ownership_mark.hpp, or the write is refused).
  virtual Status write_project_file(const std::string& relative_path, const std::string& text) = 0;
  virtual std::optional<std::string> read_project_file(const std::string& relative_path) = 0;
};

}  // namespace tfwsl::migrate
