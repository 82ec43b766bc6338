#include <windows.h>

#include <string>

#include "common/util/regular_file.hpp"

namespace tfwsl {
namespace {

RegularFileRead failed(FileReadProblem problem, DWORD error) {
  RegularFileRead out;
  out.problem = problem;
  out.why = "Windows error " + std::to_string(error);
  return out;
}

const char* kind_of(DWORD type) {
  if (type == FILE_TYPE_CHAR) return "a device";
  if (type == FILE_TYPE_PIPE) return "a pipe";
  return "not a regular file";
}

// Reads at most max_bytes + 1 bytes: one more than the cap says it is too large.
RegularFileRead read_bounded(HANDLE file, std::uintmax_t max_bytes) {
  RegularFileRead out;
  char buffer[65536];
  for (;;) {
    DWORD n = 0;
    if (!ReadFile(file, buffer, sizeof buffer, &n, nullptr)) return failed(FileReadProblem::unreadable, GetLastError());
    if (n == 0) return out;
    out.bytes.append(buffer, n);
    if (out.bytes.size() > max_bytes) {
      out.problem = FileReadProblem::too_large;
      out.size = out.bytes.size();
      out.bytes.clear();
      return out;
    }
  }
}

RegularFileRead read_open(HANDLE file, std::uintmax_t max_bytes) {
  RegularFileRead out;
  const DWORD type = GetFileType(file);
  BY_HANDLE_FILE_INFORMATION info{};
  if (type != FILE_TYPE_DISK) {
    out.problem = FileReadProblem::not_regular;
    out.kind = kind_of(type);
  } else if (GetFileInformationByHandle(file, &info) && (info.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY) != 0) {
    out.problem = FileReadProblem::not_regular;
    out.kind = "a folder";
  } else if (LARGE_INTEGER size{};
             GetFileSizeEx(file, &size) && static_cast<std::uintmax_t>(size.QuadPart) > max_bytes) {
    out.problem = FileReadProblem::too_large;
    out.size = static_cast<std::uintmax_t>(size.QuadPart);
  } else {
    out = read_bounded(file, max_bytes);
  }
  return out;
}

}  // namespace

RegularFileRead read_regular_file(const std::filesystem::path& path, std::uintmax_t max_bytes) {
  const DWORD attributes = GetFileAttributesW(path.c_str());
  if (attributes != INVALID_FILE_ATTRIBUTES && (attributes & FILE_ATTRIBUTE_DIRECTORY) != 0) {
    RegularFileRead out;
    out.problem = FileReadProblem::not_regular;
    out.kind = "a folder";
    return out;
  }
  const HANDLE file = CreateFileW(path.c_str(), GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
                                  nullptr, OPEN_EXISTING, FILE_ATTRIBUTE_NORMAL, nullptr);
  if (file == INVALID_HANDLE_VALUE) {
    const DWORD error = GetLastError();
    const bool missing = error == ERROR_FILE_NOT_FOUND || error == ERROR_PATH_NOT_FOUND;
    return failed(missing ? FileReadProblem::missing : FileReadProblem::unreadable, error);
  }
  RegularFileRead out = read_open(file, max_bytes);
  CloseHandle(file);
  return out;
}

}  // namespace tfwsl
