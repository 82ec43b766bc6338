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

}  // namespace

Result<FileLock> FileLock::acquire(const std::filesystem::path& lock_path, std::chrono::milliseconds wait,
                                   const std::optional<AccountId>& owner) {
  const HANDLE file = CreateFileW(lock_path.c_str(), GENERIC_READ | GENERIC_WRITE,
                                  FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, nullptr, OPEN_ALWAYS,
                                  FILE_ATTRIBUTE_NORMAL | FILE_FLAG_OPEN_REPARSE_POINT, nullptr);
  if (file == INVALID_HANDLE_VALUE)
    return make_error(ErrorCode::io, "cannot open the lock file " + shown_path(lock_path) + ": Windows error " +
                                         std::to_string(GetLastError()));
  // FILE_FLAG_OPEN_REPARSE_POINT opened a planted link or junction as itself, which is refused as
  // the POSIX lock refuses a link (O_NOFOLLOW): only a plain file of that name is the lock.
  BY_HANDLE_FILE_INFORMATION info{};
  const bool linked = GetFileInformationByHandle(file, &info) != 0 &&
                      (info.dwFileAttributes & (FILE_ATTRIBUTE_REPARSE_POINT | FILE_ATTRIBUTE_DIRECTORY)) != 0;
  if (GetFileType(file) != FILE_TYPE_DISK || linked) {
    CloseHandle(file);
    return make_error(ErrorCode::io, "the lock file " + shown_path(lock_path) +
                                         " is not a regular file (a link or a folder?): remove it");
  }
  if (owner)
    if (auto given = give_to(lock_path, *owner); !given) {
      CloseHandle(file);
      return tl::unexpected(given.error());
    }
  const auto deadline = std::chrono::steady_clock::now() + wait;
  while (!lock_once(file)) {
    const DWORD error = GetLastError();
    if (error != ERROR_LOCK_VIOLATION || std::chrono::steady_clock::now() >= deadline) {
      CloseHandle(file);
      if (error == ERROR_LOCK_VIOLATION)
        return make_error(ErrorCode::busy, "another process has held the lock " + shown_path(lock_path) + " for " +
                                               std::to_string(wait.count() / 1000) + " s: try again when it is done");
      return make_error(ErrorCode::io,
                        "cannot lock " + shown_path(lock_path) + ": Windows error " + std::to_string(error));
    }
    std::this_thread::sleep_for(k_poll);
  }
  return FileLock(reinterpret_cast<std::intptr_t>(file));
}

void FileLock::release() noexcept {
  if (m_handle == -1) return;
  CloseHandle(as_handle(m_handle));  // closing the handle drops the lock
  m_handle = -1;
}

FileLock::FileLock(FileLock&& other) noexcept : m_handle(other.m_handle) { other.m_handle = -1; }

FileLock& FileLock::operator=(FileLock&& other) noexcept {
  if (this != &other) {
    release();
    m_handle = other.m_handle;
    other.m_handle = -1;
  }
  return *this;
}

FileLock::~FileLock() { release(); }

}  // namespace tfwsl
