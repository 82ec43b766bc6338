#include <windows.h>

#include <filesystem>

#include "common/util/linked_folder.hpp"

namespace tfwsl::detail {

// Junctions, symbolic links and mount points all carry FILE_ATTRIBUTE_REPARSE_POINT.
bool is_plain_folder_or_missing(const std::filesystem::path& path, bool& missing) {
  const DWORD attributes = GetFileAttributesW(path.c_str());
  if (attributes == INVALID_FILE_ATTRIBUTES) {
    const DWORD error = GetLastError();
    missing = error == ERROR_FILE_NOT_FOUND || error == ERROR_PATH_NOT_FOUND;
    return missing;
  }
  return (attributes & FILE_ATTRIBUTE_DIRECTORY) != 0 && (attributes & FILE_ATTRIBUTE_REPARSE_POINT) == 0;
}

}  // namespace tfwsl::detail
