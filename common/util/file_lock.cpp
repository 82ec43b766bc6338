// What FileLock does the same way on both systems: moving the lock from one object to another.
#include "common/util/file_lock.hpp"

namespace tfwsl {

void FileLock::take_from(FileLock& other) noexcept {
  m_handle = other.m_handle;
  m_folder = other.m_folder;
  m_path = std::move(other.m_path);
  other.m_handle = -1;
  other.m_folder = -1;
}

FileLock::FileLock(FileLock&& other) noexcept { take_from(other); }

FileLock& FileLock::operator=(FileLock&& other) noexcept {
  if (this != &other) {
    release();
    take_from(other);
  }
  return *this;
}

FileLock::~FileLock() { release(); }

}  // namespace tfwsl
