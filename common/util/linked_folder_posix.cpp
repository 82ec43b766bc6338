#include <sys/stat.h>

#include <cerrno>
#include <filesystem>

#include "common/util/linked_folder.hpp"

namespace tfwsl::detail {

bool is_plain_folder_or_missing(const std::filesystem::path& path, bool& missing) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) {
    missing = errno == ENOENT;
    return missing;
  }
  return S_ISDIR(st.st_mode);
}

}  // namespace tfwsl::detail
