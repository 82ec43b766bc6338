#pragma once
// An exclusive lock between processes that change the same file: a lock file beside it, held with
// flock(2) (POSIX, file_lock_posix.cpp) or LockFileEx (Windows, file_lock_windows.cpp) for as long
// as the FileLock lives. The system drops the lock when the holder exits, however it ends, so a
// killed run never leaves a stale lock behind.
//
// The holder removes the lock file as it lets go, so none is left in the user's folder. A waiter may
// then hold the lock of a file that no longer has the name (it opened the file before the holder
// removed it), while a third process creates and locks a new one: two holders. So a lock counts only
// once its file is still the one the name leads to (same device and inode; same volume and file id),
// else it is let go and taken again; and only a holder whose file is still named removes it. A killed
// holder leaves the empty file, which the next holder removes.
//
// The lock file is opened without following a link (O_NOFOLLOW; FILE_FLAG_OPEN_REPARSE_POINT) and
// must be a regular file: a planted link or FIFO is refused, never used.

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <utility>

#include "common/core/error.hpp"
#include "common/util/file_owner.hpp"

namespace tfwsl {

class FileLock {
 public:
  // Waits up to `wait` for the lock on `lock_path` (created when missing); ErrorCode::busy, naming
  // the lock file, when another process holds it that long. With `owner` (a privileged run in a
  // user's folder: privileged_target.hpp) the lock file is given to that account, so the user's own
  // later runs can open it.
  static Result<FileLock> acquire(const std::filesystem::path& lock_path, std::chrono::milliseconds wait,
                                  const std::optional<AccountId>& owner = std::nullopt);

  FileLock(FileLock&& other) noexcept;
  FileLock& operator=(FileLock&& other) noexcept;
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;
  ~FileLock();

 private:
  FileLock(std::intptr_t handle, std::intptr_t folder, std::filesystem::path path)
      : m_handle(handle), m_folder(folder), m_path(std::move(path)) {}
  void release() noexcept;  // removes the lock file (if still named), then drops the lock
  void take_from(FileLock& other) noexcept;

  std::intptr_t m_handle = -1;   // a descriptor (POSIX) or a HANDLE (Windows); -1: none
  std::intptr_t m_folder = -1;   // POSIX: the lock file's folder, opened once (names resolved below it)
  std::filesystem::path m_path;  // the lock file
};

}  // namespace tfwsl
