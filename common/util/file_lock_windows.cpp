#include <windows.h>

#include <string>
#include <thread>

#include "common/util/atomic_file.hpp"
#include "common/util/file_lock.hpp"

namespace tfwsl {
namespace {

constexpr std::chrono::milliseconds k_poll{20};

HANDLE as_handle(std::intptr_t value) { return reinterpret_cast<HANDLE>(value); }

bool lock_once(HANDLE file) {
  OVERLAPPED at{};
  return LockFileEx(file, LOCKFILE_EXCLUSIVE_LOCK | LOCKFILE_FAIL_IMMEDIATELY, 0, 1, 0, &at) != 0;
}

Error busy_error(const std::filesystem::path& lock_path, std::chrono::milliseconds wait) {
  return Error{ErrorCode::busy, "another process has held the lock " + shown_path(lock_path) + " for " +
                                    std::to_string(wait.count() / 1000) + " s: try again when it is done"};
}

// The lock file with DELETE access, so its holder can remove it while holding it. A file whose
// removal is pending (its holder let go, a waiter still has it open) cannot be opened again
// (ERROR_ACCESS_DENIED) until the last handle closes: that is waited out like a held lock, and only
// past the deadline taken for what it may also be, a file this account may not open.
Result<HANDLE> open_lock_file(const std::filesystem::path& lock_path, std::chrono::steady_clock::time_point deadline) {
  for (;;) {
    const HANDLE file = CreateFileW(lock_path.c_str(), GENERIC_READ | GENERIC_WRITE | DELETE,
                                    FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, nullptr, OPEN_ALWAYS,
                                    FILE_ATTRIBUTE_NORMAL | FILE_FLAG_OPEN_REPARSE_POINT, nullptr);
    if (file != INVALID_HANDLE_VALUE) return file;
    const DWORD error = GetLastError();
    if (error != ERROR_ACCESS_DENIED || std::chrono::steady_clock::now() >= deadline)
      return make_error(ErrorCode::io, "cannot open the lock file " + shown_path(lock_path) + ": Windows error " +
                                           std::to_string(error) +
                                           (error == ERROR_ACCESS_DENIED ? " (access denied: remove the file)" : ""));
    std::this_thread::sleep_for(k_poll);
  }
}

// FILE_FLAG_OPEN_REPARSE_POINT opened a planted link or junction as itself, which is refused as the
// POSIX lock refuses a link (O_NOFOLLOW): only a plain file of that name is the lock.
Status check_plain_file(HANDLE file, const std::filesystem::path& lock_path) {
  BY_HANDLE_FILE_INFORMATION info{};
  const bool linked = GetFileInformationByHandle(file, &info) != 0 &&
                      (info.dwFileAttributes & (FILE_ATTRIBUTE_REPARSE_POINT | FILE_ATTRIBUTE_DIRECTORY)) != 0;
  if (GetFileType(file) != FILE_TYPE_DISK || linked)
    return make_error(ErrorCode::io, "the lock file " + shown_path(lock_path) +
                                         " is not a regular file (a link or a folder?): remove it");
  return {};
}

// Whether the name still leads to the file `held` has open: the same volume and file id. A removed
// name, or one whose removal is pending (it cannot be opened), does not.
bool still_named(const std::filesystem::path& lock_path, HANDLE held) {
  const HANDLE named =
      CreateFileW(lock_path.c_str(), FILE_READ_ATTRIBUTES, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
                  nullptr, OPEN_EXISTING, FILE_FLAG_OPEN_REPARSE_POINT, nullptr);
  if (named == INVALID_HANDLE_VALUE) return false;
  BY_HANDLE_FILE_INFORMATION a{};
  BY_HANDLE_FILE_INFORMATION b{};
  const bool same = GetFileInformationByHandle(held, &a) != 0 && GetFileInformationByHandle(named, &b) != 0 &&
                    a.dwVolumeSerialNumber == b.dwVolumeSerialNumber && a.nFileIndexHigh == b.nFileIndexHigh &&
                    a.nFileIndexLow == b.nFileIndexLow;
  CloseHandle(named);
  return same;
}

// Waits for the lock on `file` until the deadline: true when held, false when busy; an error else.
Result<bool> lock_until(HANDLE file, std::chrono::steady_clock::time_point deadline,
                        const std::filesystem::path& lock_path) {
  while (!lock_once(file)) {
    const DWORD error = GetLastError();
    if (error != ERROR_LOCK_VIOLATION)
      return make_error(ErrorCode::io,
                        "cannot lock " + shown_path(lock_path) + ": Windows error " + std::to_string(error));
    if (std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::sleep_for(k_poll);
  }
  return true;
}

Result<HANDLE> lock_named_file(const std::filesystem::path& lock_path, std::chrono::milliseconds wait,
                               const std::optional<AccountId>& owner) {
  const auto deadline = std::chrono::steady_clock::now() + wait;
  for (;;) {
    TFWSL_TRY(file, open_lock_file(lock_path, deadline));
    Status ready = check_plain_file(file, lock_path);
    if (ready && owner) ready = give_to(lock_path, *owner);
    if (!ready) {
      CloseHandle(file);
      return tl::unexpected(ready.error());
    }
    auto held = lock_until(file, deadline, lock_path);
    if (held && *held && still_named(lock_path, file)) return file;
    CloseHandle(file);  // busy, an error, or the holder before removed this file: take the new one
    if (!held) return tl::unexpected(held.error());
    if (!*held || std::chrono::steady_clock::now() >= deadline) return tl::unexpected(busy_error(lock_path, wait));
  }
}

}  // namespace

Result<FileLock> FileLock::acquire(const std::filesystem::path& lock_path, std::chrono::milliseconds wait,
                                   const std::optional<AccountId>& owner) {
  TFWSL_TRY(file, lock_named_file(lock_path, wait, owner));
  return FileLock(reinterpret_cast<std::intptr_t>(file), -1, lock_path);
}

void FileLock::release() noexcept {
  if (m_handle == -1) return;
  const HANDLE file = as_handle(m_handle);
  // Marked for removal while still held, and only while it is still the file named; the name goes
  // when the last handle closes (a waiter's), and that waiter sees it unnamed and takes a new one.
  if (still_named(m_path, file)) {
    FILE_DISPOSITION_INFO remove{};
    remove.DeleteFile = TRUE;
    SetFileInformationByHandle(file, FileDispositionInfo, &remove, sizeof(remove));
  }
  CloseHandle(file);  // closing the handle drops the lock
  m_handle = -1;
}

}  // namespace tfwsl
