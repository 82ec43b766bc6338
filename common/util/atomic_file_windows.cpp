// Windows: a temporary file in the same folder, FlushFileBuffers, then ReplaceFileW over the
// target (https://learn.microsoft.com/windows/win32/api/winbase/nf-winbase-replacefilew), or
// MoveFileExW(MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH) when there is no target yet.
#include <windows.h>

#include <algorithm>
#include <string>

#include "common/util/atomic_file.hpp"
#include "common/util/shell_quote.hpp"
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

// Writes and flushes an open file; with the stop port at half_written, stops half-way.
Status write_flushed(HANDLE file, std::string_view bytes, const std::filesystem::path& path, bool with_fault) {
  if (with_fault && replace_stop_stage() == ReplaceFault::half_written) {
    TFWSL_TRY_STATUS(write_all(file, bytes.substr(0, bytes.size() / 2), path));
    FlushFileBuffers(file);
    maybe_fault(ReplaceFault::half_written);
  }
  TFWSL_TRY_STATUS(write_all(file, bytes, path));
  if (!FlushFileBuffers(file))
    return make_error(ErrorCode::io, "cannot flush " + shown_path(path) + ": " + last_error_text());
  return {};
}

// Creates `path`, which must not exist (CREATE_NEW; FILE_FLAG_OPEN_REPARSE_POINT so that a link
// is never followed), with `bytes`, flushed, and closes it (ReplaceFileW and MoveFileExW fail with a
// sharing violation on an open file); a file it created and could not fill is removed again.
Status create_flushed(const std::filesystem::path& path, std::string_view bytes, bool with_fault) {
  Status written;
  {
    OwnedHandle file;
    file.handle = CreateFileW(path.c_str(), GENERIC_WRITE, 0, nullptr, CREATE_NEW,
                              FILE_ATTRIBUTE_NORMAL | FILE_FLAG_OPEN_REPARSE_POINT, nullptr);
    if (file.handle == INVALID_HANDLE_VALUE) {
      const DWORD error = GetLastError();
      const bool taken = error == ERROR_FILE_EXISTS || error == ERROR_ALREADY_EXISTS;
      return make_error(taken ? ErrorCode::conflict : ErrorCode::io,
                        "cannot create " + shown_path(path) + ": " + windows_error_text(error));
    }
    written = write_flushed(file.handle, bytes, path, with_fault);
  }
  if (!written) DeleteFileW(path.c_str());
  return written;
}

// The temporary file under a fresh random name until one is free (a taken name is never opened).
Status create_temporary(const std::filesystem::path& target, std::string_view bytes, std::filesystem::path& temp) {
  Status created = make_error(ErrorCode::io, "no free temporary name beside " + shown_path(target));
  for (int attempt = 0; attempt < k_temporary_name_attempts; ++attempt) {
    temp = random_temporary_path(target);
    created = create_flushed(temp, bytes, true);
    if (created || created.error().code != ErrorCode::conflict) return created;
  }
  return created;
}

}  // namespace

void maybe_fault(ReplaceFault stage) {
  if (stage != ReplaceFault::none && replace_stop_stage() == stage)
    TerminateProcess(GetCurrentProcess(), k_replace_fault_exit_code);
}

bool is_write_protected(const std::filesystem::path& path) {
  const DWORD attributes = GetFileAttributesW(path.c_str());
  return attributes != INVALID_FILE_ATTRIBUTES && (attributes & FILE_ATTRIBUTE_READONLY) != 0;
}

Status replace_file_atomically(const std::filesystem::path& target, std::string_view bytes,
                               const std::optional<AccountId>& owner) {
  if (is_write_protected(target))
    return make_error(ErrorCode::permission, shown_path(target) +
                                                 " is read-only: nothing was changed; make it writable "
                                                 "(in PowerShell: " +
                                                 powershell_command({"attrib", "-R", shown_path(target)}) +
                                                 ") if it should change, and run again");
  std::filesystem::path temp;
  TFWSL_TRY_STATUS(create_temporary(target, bytes, temp));
  if (owner)
    if (auto given = give_to(temp, *owner); !given) {
      DeleteFileW(temp.c_str());
      return given;
    }
  maybe_fault(ReplaceFault::before_swap);
  const bool exists = GetFileAttributesW(target.c_str()) != INVALID_FILE_ATTRIBUTES;
  const BOOL swapped =
      exists ? ReplaceFileW(target.c_str(), temp.c_str(), nullptr, REPLACEFILE_IGNORE_MERGE_ERRORS, nullptr, nullptr)
             : MoveFileExW(temp.c_str(), target.c_str(), MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH);
  if (!swapped) {
    const std::string why = last_error_text();
    DeleteFileW(temp.c_str());
    return make_error(ErrorCode::io, "cannot replace " + shown_path(target) + ": " + why);
  }
  return {};
}

// Windows has no permission bits to give: the new file inherits its folder's ACL.
Status write_new_file(const std::filesystem::path& path, std::string_view bytes, std::filesystem::perms,
                      const std::optional<AccountId>& owner) {
  TFWSL_TRY_STATUS(create_flushed(path, bytes, false));
  if (!owner) return {};
  auto given = give_to(path, *owner);
  if (!given) DeleteFileW(path.c_str());
  return given;
}

}  // namespace tfwsl
