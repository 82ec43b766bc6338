#include <dlfcn.h>
#include <limits.h>
#include <link.h>
#include <stdlib.h>

#include "linux/checks/library_loader.hpp"

namespace tfwsl::linux_checks {

namespace {

class DlopenLibrary final : public DynamicLibrary {
 public:
  explicit DlopenLibrary(void* handle) : m_handle(handle) {}
  // Never dlclose: a CUDA driver library does not survive being unloaded and reloaded in one process.
  ~DlopenLibrary() override = default;
  void* symbol(const char* name) const override { return dlsym(m_handle, name); }
  std::string real_path() const override {
    struct link_map* map = nullptr;
    if (dlinfo(m_handle, RTLD_DI_LINKMAP, &map) != 0 || !map || !map->l_name) return {};
    char resolved[PATH_MAX];
    if (realpath(map->l_name, resolved)) return resolved;
    return map->l_name;
  }

 private:
  void* m_handle;
};

}  // namespace

Result<std::shared_ptr<DynamicLibrary>> DlopenLoader::open(const std::string& soname) {
  dlerror();
  void* handle = dlopen(soname.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char* why = dlerror();
    return make_error(ErrorCode::not_found, soname + " not found", why ? why : "dlopen failed");
  }
  return std::shared_ptr<DynamicLibrary>(std::make_shared<DlopenLibrary>(handle));
}

}  // namespace tfwsl::linux_checks
