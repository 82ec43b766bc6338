#pragma once
// Small POSIX file helpers the copy engine is built from: an owning descriptor, opening a path
// beneath a held directory without following any symlink, and whole-buffer writes.

#include <sys/stat.h>
#include <sys/types.h>

#include <cstddef>
#include <filesystem>
#include <functional>
#include <string>
#include <utility>

namespace tfwsl::dataset {

class UniqueFd {
 public:
  UniqueFd() = default;
  explicit UniqueFd(int fd) : m_fd(fd) {}
  ~UniqueFd() { reset(); }
  UniqueFd(UniqueFd&& other) noexcept : m_fd(std::exchange(other.m_fd, -1)) {}
  UniqueFd& operator=(UniqueFd&& other) noexcept {
    if (this != &other) {
      reset();
      m_fd = std::exchange(other.m_fd, -1);
    }
    return *this;
  }
  UniqueFd(const UniqueFd&) = delete;
  UniqueFd& operator=(const UniqueFd&) = delete;

  int get() const { return m_fd; }
  explicit operator bool() const { return m_fd >= 0; }
  void reset();
  int release() { return std::exchange(m_fd, -1); }
  // Closes now and returns close()'s result (0, or the errno): a failed close means lost data.
  int close_checked();

 private:
  int m_fd = -1;
};

// openat() of a relative path beneath dir_fd that fails (ELOOP or EXDEV) rather than follow a
// symlink anywhere on the way, the last component included, or leave dir_fd's tree. Uses openat2
// (Linux 5.6+) and falls back to a walk component by component with O_NOFOLLOW. An empty path is
// dir_fd's folder itself. With O_PATH | O_NOFOLLOW a final symlink is opened as itself (for fstat).
// Returns the fd or -1 with errno set.
int open_beneath(int dir_fd, const std::string& relative_path, int flags, mode_t mode = 0);

// Opens an absolute folder path that has no symlink left in it (a canonical path, as
// resolve_import_paths gives) without following any: a component swapped for a symlink since it
// was resolved fails with ELOOP instead of leading elsewhere (outside the agent's roots, say).
// With create, missing folders are made (0755) on the way, each beneath the one before. Opened
// O_RDONLY | O_DIRECTORY; returns the fd or -1 with errno set.
int open_folder_path(const std::filesystem::path& absolute, bool create);

// Which file a stat describes: the same (st_dev, st_ino) is the same file or folder, whatever path,
// symlink, bind mount or /proc alias led to it.
struct FileId {
  dev_t dev = 0;
  ino_t ino = 0;
  bool operator==(const FileId&) const = default;
};
inline FileId file_id(const struct stat& st) { return {st.st_dev, st.st_ino}; }
struct FileIdHash {
  std::size_t operator()(const FileId& id) const {
    return std::hash<unsigned long long>()(static_cast<unsigned long long>(id.ino) * 0x9E3779B97F4A7C15ull ^
                                           static_cast<unsigned long long>(id.dev));
  }
};

// Writes all of it, retrying short writes and EINTR. 0 or the errno.
int write_all(int fd, const char* data, std::size_t size);

// "No such file or directory (ENOENT)"
std::string errno_text(int error);

// Parent part of a relative path ("" for a top-level name) and the last component.
std::string parent_of(const std::string& relative_path);
std::string leaf_of(const std::string& relative_path);

}  // namespace tfwsl::dataset
