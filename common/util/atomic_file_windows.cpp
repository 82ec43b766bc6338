// Windows: a temporary file in the same folder, FlushFileBuffers, then ReplaceFileW over the
// target (https://learn.microsoft.com/windows/win32/api/winbase/nf-winbase-replacefilew), or
// MoveFileExW(MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH) when there is no target yet.
#include <windows.h>

#include <algorithm>
#include <string>

#include "common/util/atomic_file.hpp"
#include "common/util/windows_error_text.hpp"

namespace tfwsl {
namespace {

std::string last_error_text() { return windows_error_text(GetLastError()); }

struct OwnedHandle {
  HANDLE handle = INVALID_HANDLE_VALUE;
  ~OwnedHandle() {
    if (handle != INVALID_HANDLE_VALUE) CloseHandle(handle);
  }
};

Status write_all(HANDLE file, std::string_view bytes, const std::filesystem::path& path) {
  std::size_t done = 0;
  while (done < bytes.size()) {
    DWORD n = 0;
    const DWORD chunk = static_cast<DWORD>(std::min<std::size_t>(bytes.size() - done, 1u << 20));
    if (!WriteFile(file, bytes.data() + done, chunk, &n, nullptr) || n == 0)
      return make_error(ErrorCode::io, "cannot write " + shown_path(path) + ": " + last_error_text());
    done += n;
  }
  return {};
}

// Writes and flushes an open file; with the fault hook, stops half-way as asked.
Status write_flushed(HANDLE file, std::string_view bytes, const std::filesystem::path& path, bool with_fault) {
  if (with_fault && replace_fault_from_environment() == ReplaceFault::half_written) {
    TFWSL_TRY_STATUS(write_all(file, bytes.substr(0, bytes.size() / 2), path));
    FlushFileBuffers(file);
    maybe_fault(ReplaceFault::half_written);
  }
  TFWSL_TRY_STATUS(write_all(file, bytes, path));
  if (!FlushFileBuffers(file))
    return make_error(ErrorCode::io, "cannot flush " + shown_path(path) + ": " + last_error_text());
  return {};
}

// Creates `path` (CREATE_NEW or CREATE_ALWAYS) with `bytes`, flushed; a file it created and could
// not fill is removed again.
Status create_flushed(const std::filesystem::path& path, std::string_view bytes, DWORD disposition, bool with_fault) {
  Status written;
  {
    OwnedHandle file;
    file.handle = CreateFileW(path.c_str(), GENERIC_WRITE, 0, nullptr, disposition, FILE_ATTRIBUTE_NORMAL, nullptr);
    if (file.handle == INVALID_HANDLE_VALUE)
      return make_error(ErrorCode::io, "cannot create " + shown_path(path) + ": " + last_error_text());
    written = write_flushed(file.handle, bytes, path, with_fault);
  }
  if (!written) DeleteFileW(path.c_str());
  return written;
}

}  // namespace

void maybe_fault(ReplaceFault stage) {
  if (stage != ReplaceFault::none && replace_fault_from_environment() == stage)
    TerminateProcess(GetCurrentProcess(), k_replace_fault_exit_code);
}

std::filesystem::path temporary_path_for(const std::filesystem::path& target) {
  return target.parent_path() /
         (L"." + target.filename().wstring() + L".tfwsl-tmp-" + std::to_wstring(GetCurrentProcessId()));
}

Status replace_file_atomically(const std::filesystem::path& target, std::string_view bytes) {
  const std::filesystem::path temp = temporary_path_for(target);
  TFWSL_TRY_STATUS(create_flushed(temp, bytes, CREATE_ALWAYS, true));
  maybe_fault(ReplaceFault::before_swap);
  const bool exists = GetFileAttributesW(target.c_str()) != INVALID_FILE_ATTRIBUTES;
  const BOOL swapped = exists ? ReplaceFileW(target.c_str(), temp.c_str(), nullptr, REPLACEFILE_IGNORE_MERGE_ERRORS,
                                             nullptr, nullptr)
                              : MoveFileExW(temp.c_str(), target.c_str(),
                                            MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH);
  if (!swapped) {
    const std::string why = last_error_text();
    DeleteFileW(temp.c_str());
    return make_error(ErrorCode::io, "cannot replace " + shown_path(target) + ": " + why);
  }
  return {};
}

Status write_new_file(const std::filesystem::path& path, std::string_view bytes) {
  return create_flushed(path, bytes, CREATE_NEW, false);
}

}  // namespace tfwsl
