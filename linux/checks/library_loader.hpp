#pragma once
// The dynamic loader as a port: the GPU probes dlopen libcuda, NVML and cuDNN through this, so unit
// tests hand in a fake "library" whose symbols are plain functions of the test, and the probes run
// on machines with no GPU at all.

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "common/core/error.hpp"

namespace tfwsl::linux_checks {

class DynamicLibrary {
 public:
  virtual ~DynamicLibrary() = default;
  // The address of an exported symbol, or nullptr.
  virtual void* symbol(const char* name) const = 0;
  // The file the loader actually opened (symlinks resolved), for "which libcuda did we get".
  virtual std::string real_path() const = 0;
};

class LibraryLoader {
 public:
  virtual ~LibraryLoader() = default;
  // not_found with the loader's own message (dlerror()) when it cannot be opened.
  virtual Result<std::shared_ptr<DynamicLibrary>> open(const std::string& soname) = 0;
};

// dlopen(RTLD_NOW | RTLD_LOCAL); real_path from dlinfo/link map, then realpath.
class DlopenLoader final : public LibraryLoader {
 public:
  Result<std::shared_ptr<DynamicLibrary>> open(const std::string& soname) override;
};

// The loader of a machine kept under `root` (a probe root, ProbeEnvironment::root): a soname is
// looked up only in root's loader path, as ld.so would on that machine (the directories that
// root/etc/ld.so.conf.d/*.conf list, in file-name order, then the default x86_64 directories), and
// dlopen'ed by that full path; real_path() answers the path as the machine sees it (without root).
// Nothing on this machine's own loader path is found. The Wine scenarios' fake distro uses it.
class RootedLoader final : public LibraryLoader {
 public:
  explicit RootedLoader(std::filesystem::path root);
  Result<std::shared_ptr<DynamicLibrary>> open(const std::string& soname) override;
  // The directories searched, as the machine sees them ("/usr/lib/wsl/lib", ...).
  std::vector<std::string> search_path() const;

 private:
  std::filesystem::path m_root;
};

}  // namespace tfwsl::linux_checks
