// POSIX: write + fsync a temporary file, rename(2) it over the target, fsync the folder so the
// rename itself survives a crash (rename(2) is atomic:
// https://pubs.opengroup.org/onlinepubs/9699919799/functions/rename.html). Everything after the folder is opened goes
// through its descriptor (openat, renameat, unlinkat, fsync): the folder is pinned, so a folder swapped for a link
// half-way cannot move the write.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "common/util/atomic_file.hpp"
#include "common/util/shell_quote.hpp"

namespace tfwsl {
namespace {

std::string errno_text() { return std::strerror(errno); }

Status write_all(int fd, std::string_view bytes, const std::filesystem::path& path) {
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return make_error(ErrorCode::io, "cannot write " + shown_path(path) + ": " + errno_text());
    done += static_cast<std::size_t>(n);
  }
  return {};
}

// Writes and flushes an open file; with the stop port at half_written, stops half-way.
Status write_flushed(int fd, std::string_view bytes, const std::filesystem::path& path, bool with_fault) {
  if (with_fault && replace_stop_stage() == ReplaceFault::half_written) {
    TFWSL_TRY_STATUS(write_all(fd, bytes.substr(0, bytes.size() / 2), path));
    ::fsync(fd);
    maybe_fault(ReplaceFault::half_written);
  }
  TFWSL_TRY_STATUS(write_all(fd, bytes, path));
  if (::fsync(fd) != 0) return make_error(ErrorCode::io, "cannot flush " + shown_path(path) + ": " + errno_text());
  return {};
}

// The folder a file is written in, opened once; -1 with errno set when it cannot be.
class OpenFolder {
 public:
  explicit OpenFolder(const std::filesystem::path& of_file)
      : m_fd(::open(of_file.parent_path().empty() ? "." : of_file.parent_path().c_str(),
                    O_RDONLY | O_DIRECTORY | O_CLOEXEC)) {}
  ~OpenFolder() {
    if (m_fd >= 0) ::close(m_fd);
  }
  OpenFolder(const OpenFolder&) = delete;
  OpenFolder& operator=(const OpenFolder&) = delete;
  int fd() const { return m_fd; }
  void sync() const { ::fsync(m_fd); }  // best effort: some filesystems do not sync folders

 private:
  int m_fd;
};

std::string leaf(const std::filesystem::path& path) { return path.filename().string(); }

// A new file that did not exist, never through a link; fchmod so the umask does not narrow `mode`.
int create_exclusive(const OpenFolder& folder, const std::filesystem::path& path, mode_t mode) {
  const int fd = ::openat(folder.fd(), leaf(path).c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd >= 0) ::fchmod(fd, mode);
  return fd;
}

// The temporary file: a fresh random name until one is free (a taken name, file or link, is never
// opened). Returns the descriptor, or -1 with errno set.
int create_temporary(const OpenFolder& folder, const std::filesystem::path& target, mode_t mode,
                     std::filesystem::path& temp) {
  for (int attempt = 0; attempt < k_temporary_name_attempts; ++attempt) {
    temp = random_temporary_path(target);
    const int fd = create_exclusive(folder, temp, mode);
    if (fd >= 0 || errno != EEXIST) return fd;
  }
  return -1;
}

// The target's permission bits (following a link, as rename(2) replaces the name anyway), else rw-r--r--.
mode_t mode_for(const std::filesystem::path& target) {
  struct stat st {};
  if (::stat(target.c_str(), &st) == 0 && S_ISREG(st.st_mode)) return st.st_mode & 07777;
  return static_cast<mode_t>(k_new_file_perms);
}

Status refuse_write_protected(const std::filesystem::path& target) {
  return make_error(ErrorCode::permission,
                    shown_path(target) + " is read-only: nothing was changed; make it writable (" +
                        bash_command({"chmod", "u+w", shown_path(target)}) + ") if it should change, and run again");
}

}  // namespace

void maybe_fault(ReplaceFault stage) {
  if (stage != ReplaceFault::none && replace_stop_stage() == stage) ::_exit(k_replace_fault_exit_code);
}

bool is_write_protected(const std::filesystem::path& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return false;
  return (st.st_mode & (S_IWUSR | S_IWGRP | S_IWOTH)) == 0 || ::access(path.c_str(), W_OK) != 0;
}

Status replace_file_atomically(const std::filesystem::path& target, std::string_view bytes,
                               const std::optional<AccountId>& owner) {
  if (is_write_protected(target)) return refuse_write_protected(target);
  const OpenFolder folder(target);
  if (folder.fd() < 0)
    return make_error(ErrorCode::io, "cannot open the folder of " + shown_path(target) + ": " + errno_text());
  std::filesystem::path temp;
  const int fd = create_temporary(folder, target, mode_for(target), temp);
  if (fd < 0)
    return make_error(ErrorCode::io,
                      "cannot create a temporary file beside " + shown_path(target) + ": " + errno_text());
  auto written = write_flushed(fd, bytes, temp, true);
  ::close(fd);  // closed before the swap
  if (written && owner) written = give_to(temp, *owner);
  if (!written) {
    ::unlinkat(folder.fd(), leaf(temp).c_str(), 0);
    return written;
  }
  maybe_fault(ReplaceFault::before_swap);
  if (::renameat(folder.fd(), leaf(temp).c_str(), folder.fd(), leaf(target).c_str()) != 0) {
    const std::string why = errno_text();
    ::unlinkat(folder.fd(), leaf(temp).c_str(), 0);
    return make_error(ErrorCode::io, "cannot replace " + shown_path(target) + ": " + why);
  }
  folder.sync();
  return {};
}

Status write_new_file(const std::filesystem::path& path, std::string_view bytes, std::filesystem::perms perms,
                      const std::optional<AccountId>& owner) {
  const OpenFolder folder(path);
  const int fd = folder.fd() < 0 ? -1 : create_exclusive(folder, path, static_cast<mode_t>(perms) & 07777);
  if (fd < 0) {
    const ErrorCode code = errno == EEXIST ? ErrorCode::conflict : ErrorCode::io;
    return make_error(code, "cannot create " + shown_path(path) + ": " + errno_text());
  }
  auto written = write_flushed(fd, bytes, path, false);
  ::close(fd);
  if (written && owner) written = give_to(path, *owner);
  if (!written) {
    ::unlinkat(folder.fd(), leaf(path).c_str(), 0);
    return written;
  }
  folder.sync();
  return {};
}

}  // namespace tfwsl
