// POSIX: write + fsync a temporary file, rename(2) it over the target, fsync the folder so the
// rename itself survives a crash (rename(2) is atomic: https://pubs.opengroup.org/onlinepubs/9699919799/functions/rename.html).
#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <unistd.h>

#include "common/util/atomic_file.hpp"

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

// Writes and flushes an open file; with the fault hook, stops half-way as asked.
Status write_flushed(int fd, std::string_view bytes, const std::filesystem::path& path, bool with_fault) {
  if (with_fault && replace_fault_from_environment() == ReplaceFault::half_written) {
    TFWSL_TRY_STATUS(write_all(fd, bytes.substr(0, bytes.size() / 2), path));
    ::fsync(fd);
    maybe_fault(ReplaceFault::half_written);
  }
  TFWSL_TRY_STATUS(write_all(fd, bytes, path));
  if (::fsync(fd) != 0) return make_error(ErrorCode::io, "cannot flush " + shown_path(path) + ": " + errno_text());
  return {};
}

void sync_folder(const std::filesystem::path& folder) {
  const int fd = ::open(folder.empty() ? "." : folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;  // best effort: some filesystems do not open folders
  ::fsync(fd);
  ::close(fd);
}

}  // namespace

void maybe_fault(ReplaceFault stage) {
  if (stage != ReplaceFault::none && replace_fault_from_environment() == stage) ::_exit(k_replace_fault_exit_code);
}

std::filesystem::path temporary_path_for(const std::filesystem::path& target) {
  return target.parent_path() / ("." + target.filename().string() + ".tfwsl-tmp-" + std::to_string(::getpid()));
}

Status replace_file_atomically(const std::filesystem::path& target, std::string_view bytes) {
  const std::filesystem::path temp = temporary_path_for(target);
  const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return make_error(ErrorCode::io, "cannot create " + shown_path(temp) + ": " + errno_text());
  auto written = write_flushed(fd, bytes, temp, true);
  ::close(fd);
  if (!written) {
    ::unlink(temp.c_str());
    return written;
  }
  maybe_fault(ReplaceFault::before_swap);
  if (::rename(temp.c_str(), target.c_str()) != 0) {
    const std::string why = errno_text();
    ::unlink(temp.c_str());
    return make_error(ErrorCode::io, "cannot replace " + shown_path(target) + ": " + why);
  }
  sync_folder(target.parent_path());
  return {};
}

Status write_new_file(const std::filesystem::path& path, std::string_view bytes) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) return make_error(ErrorCode::io, "cannot create " + shown_path(path) + ": " + errno_text());
  auto written = write_flushed(fd, bytes, path, false);
  ::close(fd);
  if (!written) {
    ::unlink(path.c_str());
    return written;
  }
  sync_folder(path.parent_path());
  return {};
}

}  // namespace tfwsl
