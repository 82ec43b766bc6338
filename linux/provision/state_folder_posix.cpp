#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>

#include "linux/provision/state_folder.hpp"

namespace tfwsl::provision {
namespace {

bool trusted_owner(uid_t uid) { return uid == 0 || uid == ::geteuid(); }

tl::unexpected<Error> unsafe(const std::filesystem::path& at, std::string why) {
  return make_error(
      ErrorCode::permission,
      fmt::format("the provision state folder is not safe: {} {}; use a folder only root can change (the default, "
                  "/var/lib/tfwsl/provision, is one); nothing was changed",
                  at.string(), why));
}

// One component of the path as given (links not followed).
Status check_component(const std::filesystem::path& at, bool must_be_private) {
  struct stat st {};
  if (::lstat(at.c_str(), &st) != 0) return unsafe(at, fmt::format("cannot be examined ({})", std::strerror(errno)));
  if (!trusted_owner(st.st_uid)) return unsafe(at, fmt::format("is owned by uid {}, not root", st.st_uid));
  if (S_ISLNK(st.st_mode)) {
    if (must_be_private) return unsafe(at, "is a symbolic link");
    return {};  // a link only its owner (root) can change; where it leads is checked on the real path
  }
  if (!S_ISDIR(st.st_mode)) return unsafe(at, "is not a folder");
  const bool others_write = (st.st_mode & (S_IWGRP | S_IWOTH)) != 0;
  if (others_write && (must_be_private || (st.st_mode & S_ISVTX) == 0))
    return unsafe(at, fmt::format("can be written by others (mode {:o})", st.st_mode & 07777));
  return {};
}

// A missing folder is made (mode 0750) only once the folder above it has passed: nothing is ever
// made through a link, or in a folder someone else could have planted, before it is judged.
Status make_missing_component(const std::filesystem::path& at) {
  struct stat st {};
  if (::lstat(at.c_str(), &st) == 0 || errno != ENOENT) return {};
  if (::mkdir(at.c_str(), 0750) != 0 && errno != EEXIST)
    return make_error(ErrorCode::io, fmt::format("cannot create {}", at.string()), std::strerror(errno));
  return {};
}

// Every folder from `/` down to `path`, the last one (and only it) private; with `make`, the
// missing ones are made on the way down, each after its parent was judged.
Status check_path(const std::filesystem::path& path, bool make) {
  std::filesystem::path at = path.root_path();
  const auto last = std::prev(path.end());
  for (auto it = path.begin(); it != path.end(); ++it) {
    if (it == path.begin() && path.has_root_path()) continue;
    if (it->empty()) continue;
    at /= *it;
    if (make) TFWSL_TRY_STATUS(make_missing_component(at));
    TFWSL_TRY_STATUS(check_component(at, it == last));
  }
  return {};
}

}  // namespace

Status prepare_state_folder(const std::filesystem::path& folder_in) {
  std::error_code ec;
  const std::filesystem::path folder = std::filesystem::absolute(folder_in, ec).lexically_normal();
  if (ec) return unsafe(folder_in, "has no absolute path");
  const mode_t old_mask = ::umask(027);
  Status made = check_path(folder, true);
  if (made) made = make_missing_component(folder / "logs");
  ::umask(old_mask);
  TFWSL_TRY_STATUS(made);
  TFWSL_TRY_STATUS(check_component(folder / "logs", true));
  // The path as given may pass through root's links: the folders they lead to are checked too.
  char* real = ::realpath(folder.c_str(), nullptr);
  if (!real) return unsafe(folder, fmt::format("cannot be resolved ({})", std::strerror(errno)));
  const std::filesystem::path real_path(real);
  std::free(real);
  return check_path(real_path, false);
}

int open_state_file(const std::filesystem::path& file, int flags) {
  const int fd = ::open(file.c_str(), flags | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK, 0640);
  if (fd < 0) return -1;
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    errno = EINVAL;
    return -1;
  }
  const int status_flags = ::fcntl(fd, F_GETFL);
  if (status_flags >= 0) (void)::fcntl(fd, F_SETFL, status_flags & ~O_NONBLOCK);
  return fd;
}

void append_state_line(const std::filesystem::path& file, std::string_view line) {
  const int fd = open_state_file(file, O_WRONLY | O_APPEND | O_CREAT);
  if (fd < 0) return;
  const std::string text = std::string(line) + "\n";
  (void)!::write(fd, text.data(), text.size());
  ::close(fd);
}

}  // namespace tfwsl::provision
