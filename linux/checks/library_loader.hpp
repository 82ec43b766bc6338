#pragma once
// The dynamic loader as a port: the GPU probes dlopen libcuda, NVML and cuDNN through this, so unit
// tests hand in a fake "library" whose symbols are plain functions of the test, and the probes run
// on machines with no GPU at all.

#include <memory>
#include <string>

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

}  // namespace tfwsl::linux_checks
