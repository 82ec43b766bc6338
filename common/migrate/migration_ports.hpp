#pragma once
// What applying a migration plan needs from the world, one call per effect, so that the executor
// (apply_plan.hpp) is plain logic: provisioning (`tfwsl provision`), the dataset engine's verified
// copy (project and datasets), pip in the profile's venv, the GPU check, and files in the distro.
// Every call must be idempotent on its own (a second provision of the same profile, a second
// copy of a complete tree, change nothing); the executor adds the record of finished steps.

#include <optional>
#include <string>
#include <vector>

#include "common/core/error.hpp"
#include "common/migrate/tf_decision.hpp"

namespace tfwsl::migrate {

struct CopyRequest {
  std::string source;  // a Windows folder: "C:\\work\\flowers"
  std::string target;  // a Linux folder: "~/projects/flowers"
  std::vector<std::string> skip;  // folder names not copied: ".venv", "__pycache__" (".git" only when asked)
};

struct CopyOutcome {
  std::uint64_t files = 0;
  std::uint64_t bytes = 0;
  std::uint64_t problems = 0;  // files the engine reported (vanished, unreadable, changed)
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
                                      const std::vector<std::string>& files, const std::vector<std::string>& extra) = 0;
  // The TensorFlow GPU check, then `import <module>` from the project folder; the output on success.
  virtual Result<std::string> check_gpu_and_import(const ShippedProfile& profile, const std::string& linux_project,
                                                   const std::string& module, const std::vector<std::string>& env) = 0;
  // The distro user's home ("/home/me"): the generated files name absolute Linux paths.
  virtual Result<std::string> linux_home() = 0;
  // Paths may start with "~/" (the distro user's home).
  virtual Status write_linux_file(const std::string& linux_path, const std::string& text) = 0;
  virtual std::optional<std::string> read_linux_file(const std::string& linux_path) = 0;
  // Beside the user's files on Windows (translated requirements): never over one of theirs.
  virtual Status write_project_file(const std::string& relative_path, const std::string& text) = 0;
};

}  // namespace tfwsl::migrate
