#include <dlfcn.h>

#include <algorithm>
#include <sstream>
#include <system_error>

#include "common/util/ascii.hpp"
#include "linux/checks/file_text.hpp"
#include "linux/checks/library_loader.hpp"

namespace tfwsl::linux_checks {

namespace {

// ld.so's trusted directories on x86_64 Debian/Ubuntu, after the ld.so.conf ones (ld.so(8)).
const char* const k_default_dirs[] = {"/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/lib", "/usr/lib"};

// "/a/b" under root "/r" -> "/r/a/b".
std::filesystem::path under(const std::filesystem::path& root, const std::string& absolute) {
  std::string relative = absolute;
  while (!relative.empty() && relative.front() == '/') relative.erase(0, 1);
  return root / relative;
}

class RootedLibrary final : public DynamicLibrary {
 public:
  RootedLibrary(void* handle, std::filesystem::path root, std::filesystem::path file)
      : m_handle(handle), m_root(std::move(root)), m_file(std::move(file)) {}
  // Never dlclose, as DlopenLoader: a CUDA driver library does not survive being unloaded.
  void* symbol(const char* name) const override { return dlsym(m_handle, name); }
  std::string real_path() const override {
    std::error_code ec;
    auto real = std::filesystem::weakly_canonical(m_file, ec);
    auto root = std::filesystem::weakly_canonical(m_root, ec);
    auto relative = real.lexically_relative(root);
    if (relative.empty() || *relative.begin() == "..") return real.string();
    return "/" + relative.generic_string();
  }

 private:
  void* m_handle;
  std::filesystem::path m_root;
  std::filesystem::path m_file;
};

}  // namespace

RootedLoader::RootedLoader(std::filesystem::path root) : m_root(std::move(root)) {}

std::vector<std::string> RootedLoader::search_path() const {
  std::vector<std::string> dirs;
  std::vector<std::filesystem::path> confs;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(under(m_root, "/etc/ld.so.conf.d"), ec))
    if (entry.path().extension() == ".conf") confs.push_back(entry.path());
  std::sort(confs.begin(), confs.end());
  for (const auto& conf : confs) {
    std::istringstream in(read_text_file(conf).value_or(""));
    std::string line;
    while (std::getline(in, line)) {
      line = trim(line);
      if (!line.empty() && line[0] == '/') dirs.push_back(line);
    }
  }
  dirs.insert(dirs.end(), std::begin(k_default_dirs), std::end(k_default_dirs));
  return dirs;
}

Result<std::shared_ptr<DynamicLibrary>> RootedLoader::open(const std::string& soname) {
  std::error_code ec;
  for (const auto& dir : search_path()) {
    auto file = under(m_root, dir) / soname;
    if (!std::filesystem::exists(file, ec)) continue;
    dlerror();
    void* handle = dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
      const char* why = dlerror();
      return make_error(ErrorCode::not_found, soname + " not found", why ? why : "dlopen failed");
    }
    return std::shared_ptr<DynamicLibrary>(std::make_shared<RootedLibrary>(handle, m_root, file));
  }
  return make_error(ErrorCode::not_found, soname + " not found",
                    soname + ": cannot open shared object file: No such file or directory");
}

}  // namespace tfwsl::linux_checks
