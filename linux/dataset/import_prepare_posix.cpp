// The job's preparation: the source and target opened without following symlinks and checked not
// to overlap, then the state folder in the target, its lock (one job per target) and the staging
// folder, emptied of what a crash left.
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include <dirent.h>
#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "linux/dataset/import_job.hpp"

namespace tfwsl::dataset::import_detail {
namespace {

tl::unexpected<Error> root_open_error(const char* what, const std::filesystem::path& path, int error) {
  if (error == ELOOP)
    return make_error(ErrorCode::invalid_input,
                      fmt::format("{} '{}' changed since it was checked: a folder on its path is now a symlink, "
                                  "which the import does not follow; nothing was copied",
                                  what, path.string()));
  return make_error(error == EACCES || error == EPERM ? ErrorCode::permission
                    : error == ENOSPC || error == EDQUOT ? ErrorCode::no_space
                                                         : ErrorCode::io,
                    fmt::format("cannot open {} '{}': {}", what, path.string(), errno_text(error)));
}

}  // namespace

Status ImportJob::prepare() {
  TFWSL_TRY_STATUS(open_roots());
  TFWSL_TRY_STATUS(open_state_folder());
  TFWSL_TRY_STATUS(lock_and_open_staging());
  // Temporary files left by a crash are incomplete or not known durable: discarded, never renamed.
  clear_staging();
  return open_manifest();
}

Status ImportJob::open_roots() {
  TFWSL_TRY(paths, resolve_import_paths(m_options.source, m_options.target));
  m_paths = paths;
  // The resolved paths have no symlink left: opened without following one, a folder swapped for a
  // symlink since the checks (outside the agent's roots, say) is refused rather than used.
  m_source_fd = UniqueFd(open_folder_path(m_paths.source, false));
  if (!m_source_fd) return root_open_error("source", m_paths.source, errno);
  m_target_fd = UniqueFd(open_folder_path(m_paths.target, true));
  if (!m_target_fd) return root_open_error("target", m_paths.target, errno);
  // Again on what was opened: a path swapped between the check and the open is judged by inode.
  TFWSL_TRY_STATUS(check_disjoint_folders(m_source_fd.get(), m_target_fd.get(), m_options.source, m_options.target));
  m_folders = TargetFolders(m_target_fd.get());
  struct statfs source_fs {};
  if (::fstatfs(m_source_fd.get(), &source_fs) == 0) m_source_is_drvfs = source_fs.f_type == k_v9fs_magic;
  return {};
}

// Reads errno: call it right after the failed call.
Error ImportJob::state_error(const char* doing) const {
  int error = errno;
  return Error{error == ENOSPC ? ErrorCode::no_space : error == EACCES ? ErrorCode::permission : ErrorCode::io,
               fmt::format("cannot {} in target '{}': {}", doing, m_paths.target.string(), errno_text(error)),
               {},
               {}};
}

Status ImportJob::open_state_folder() {
  const std::string state_name(k_state_dir_name);
  if (::mkdirat(m_target_fd.get(), state_name.c_str(), 0700) != 0 && errno != EEXIST)
    return tl::unexpected(state_error("create the import state folder"));
  m_state_fd = UniqueFd(open_beneath(m_target_fd.get(), state_name, O_RDONLY | O_DIRECTORY));
  if (!m_state_fd && errno == ELOOP)
    return make_error(ErrorCode::invalid_input,
                      fmt::format("'{}' in target '{}' is a symlink, which the import never follows: remove it (or "
                                  "choose another target) and run the import again",
                                  state_name, m_paths.target.string()));
  if (!m_state_fd) return tl::unexpected(state_error("open the import state folder"));
  return check_state_folder_owner();
}

// The lock, staging and manifest live here: a folder another user owns, or one others may write,
// would let them swap those files between our checks and our writes. Ours is made 0700; anything
// else was made by someone else and is refused by name rather than used or repaired.
Status ImportJob::check_state_folder_owner() const {
  struct stat info {};
  if (::fstat(m_state_fd.get(), &info) != 0) return tl::unexpected(state_error("inspect the import state folder"));
  const std::string where = (m_paths.target / std::string(k_state_dir_name)).string();
  if (info.st_uid != ::geteuid())
    return make_error(ErrorCode::permission,
                      fmt::format("the import state folder '{}' is owned by uid {}, not by this user (uid {}): "
                                  "remove it (or choose another target) and run the import again",
                                  where, info.st_uid, ::geteuid()));
  if ((info.st_mode & (S_IWGRP | S_IWOTH)) != 0)
    return make_error(ErrorCode::permission,
                      fmt::format("the import state folder '{}' has mode {:04o}, so others may write in it: "
                                  "remove it (or `chmod 700` it) and run the import again",
                                  where, info.st_mode & 07777));
  return {};
}

Status ImportJob::lock_and_open_staging() {
  m_lock_fd = UniqueFd(::openat(m_state_fd.get(), "lock", O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600));
  if (!m_lock_fd) return tl::unexpected(state_error("create the import lock"));
  if (::flock(m_lock_fd.get(), LOCK_EX | LOCK_NB) != 0)
    return make_error(ErrorCode::conflict,
                      fmt::format("another import into '{}' is running: wait for it to finish (or cancel it), "
                                  "then run this one",
                                  m_paths.target.string()));
  if (::mkdirat(m_state_fd.get(), "staging", 0700) != 0 && errno != EEXIST)
    return tl::unexpected(state_error("create the staging folder"));
  m_staging_fd = UniqueFd(::openat(m_state_fd.get(), "staging", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
  if (!m_staging_fd) return tl::unexpected(state_error("open the staging folder"));
  return {};
}

void ImportJob::clear_staging() {
  int fd = ::openat(m_staging_fd.get(), ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  DIR* dir = ::fdopendir(fd);
  if (dir == nullptr) {
    ::close(fd);
    return;
  }
  std::vector<std::string> names;
  while (dirent* entry = ::readdir(dir)) {
    std::string_view name = entry->d_name;
    if (name != "." && name != "..") names.emplace_back(name);
  }
  ::closedir(dir);
  for (const auto& name : names)
    if (::unlinkat(m_staging_fd.get(), name.c_str(), 0) != 0) spdlog::warn("cannot remove staging file {}", name);
}

}  // namespace tfwsl::dataset::import_detail
