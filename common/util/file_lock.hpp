#pragma once
// An exclusive lock between processes that change the same file: a lock file beside it, held with
// flock(2) (POSIX, file_lock_posix.cpp) or LockFileEx (Windows, file_lock_windows.cpp) for as long
// as the FileLock lives. The system drops the lock when the holder exits, however it ends, so a
// killed run never leaves a stale lock behind. The lock file itself stays (removing it would let a
// later process lock a new file while an earlier one still holds the old): it is empty and never read.
//
// The lock file is opened without following a link (O_NOFOLLOW; FILE_FLAG_OPEN_REPARSE_POINT) and
// must be a regular file: a planted link or FIFO is refused, never used.

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>

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
  explicit FileLock(std::intptr_t handle) : m_handle(handle) {}
  void release() noexcept;

  std::intptr_t m_handle = -1;  // a descriptor (POSIX) or a HANDLE (Windows); -1: none
};

}  // namespace tfwsl
