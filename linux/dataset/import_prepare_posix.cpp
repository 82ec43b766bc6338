// The job's preparation (import_roots.hpp).
#include <dirent.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <spdlog/spdlog.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "linux/dataset/import_roots.hpp"
#include "linux/dataset/import_tuning.hpp"

namespace tfwsl::dataset::import_detail {
namespace {

tl::unexpected<Error> root_open_error(const char* what, const std::filesystem::path& path, int error) {
  if (error == ELOOP)
    return make_error(ErrorCode::invalid_input,
                      fmt::format("{} '{}' changed since it was checked: a folder on its path is now a symlink, "
                                  "which the import does not follow; nothing was copied",
                                  what, path.string()));
  return make_error(error == EACCES || error == EPERM    ? ErrorCode::permission
                    : error == ENOSPC || error == EDQUOT ? ErrorCode::no_space
                                                         : ErrorCode::io,
                    fmt::format("cannot open {} '{}': {}", what, path.string(), errno_text(error)));
}

Status open_roots(const ImportOptions& options, ImportRoots& roots) {
  TFWSL_TRY(paths, resolve_import_paths(options.source, options.target));
  roots.paths = paths;
  // The resolved paths have no symlink left: opened without following one, a folder swapped for a
  // symlink since the checks (outside the agent's roots, say) is refused rather than used.
  roots.source = UniqueFd(open_folder_path(roots.paths.source, false));
  if (!roots.source) return root_open_error("source", roots.paths.source, errno);
  roots.target = UniqueFd(open_folder_path(roots.paths.target, true));
  if (!roots.target) return root_open_error("target", roots.paths.target, errno);
  // Again on what was opened: a path swapped between the check and the open is judged by inode.
  TFWSL_TRY_STATUS(check_disjoint_folders(roots.source.get(), roots.target.get(), options.source, options.target));
  struct statfs source_fs {};
  if (::fstatfs(roots.source.get(), &source_fs) == 0) roots.source_is_drvfs = source_fs.f_type == k_v9fs_magic;
  return {};
}

// The lock, staging and manifest live here: a folder another user owns, or one others may write,
// would let them swap those files between our checks and our writes. Ours is made 0700; anything
// else was made by someone else and is refused by name rather than used or repaired.
Status check_state_folder_owner(const ImportRoots& roots) {
  struct stat info {};
  if (::fstat(roots.state.get(), &info) != 0)
    return tl::unexpected(state_error(roots.paths.target, "inspect the import state folder"));
  const std::string where = (roots.paths.target / std::string(k_state_dir_name)).string();
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

Status open_state_folder(ImportRoots& roots) {
  const std::string state_name(k_state_dir_name);
  if (::mkdirat(roots.target.get(), state_name.c_str(), 0700) != 0 && errno != EEXIST)
    return tl::unexpected(state_error(roots.paths.target, "create the import state folder"));
  roots.state = UniqueFd(open_beneath(roots.target.get(), state_name, O_RDONLY | O_DIRECTORY));
  if (!roots.state && errno == ELOOP)
    return make_error(ErrorCode::invalid_input,
                      fmt::format("'{}' in target '{}' is a symlink, which the import never follows: remove it (or "
                                  "choose another target) and run the import again",
                                  state_name, roots.paths.target.string()));
  if (!roots.state) return tl::unexpected(state_error(roots.paths.target, "open the import state folder"));
  return check_state_folder_owner(roots);
}

Status lock_and_open_staging(ImportRoots& roots) {
  const auto& target = roots.paths.target;
  roots.lock = UniqueFd(::openat(roots.state.get(), "lock", O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600));
  if (!roots.lock) return tl::unexpected(state_error(target, "create the import lock"));
  if (::flock(roots.lock.get(), LOCK_EX | LOCK_NB) != 0)
    return make_error(ErrorCode::conflict,
                      fmt::format("another import into '{}' is running: wait for it to finish (or cancel it), "
                                  "then run this one",
                                  target.string()));
  if (::mkdirat(roots.state.get(), "staging", 0700) != 0 && errno != EEXIST)
    return tl::unexpected(state_error(target, "create the staging folder"));
  roots.staging = UniqueFd(::openat(roots.state.get(), "staging", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
  if (!roots.staging) return tl::unexpected(state_error(target, "open the staging folder"));
  return {};
}

}  // namespace

Result<ImportRoots> open_import_roots(const ImportOptions& options) {
  ImportRoots roots;
  TFWSL_TRY_STATUS(open_roots(options, roots));
  TFWSL_TRY_STATUS(open_state_folder(roots));
  TFWSL_TRY_STATUS(lock_and_open_staging(roots));
  return roots;
}

Error state_error(const std::filesystem::path& target, const char* doing) {
  int error = errno;
  return Error{error == ENOSPC   ? ErrorCode::no_space
               : error == EACCES ? ErrorCode::permission
                                 : ErrorCode::io,
               fmt::format("cannot {} in target '{}': {}", doing, target.string(), errno_text(error)),
               {},
               {}};
}

void clear_staging(int staging_fd) {
  int fd = ::openat(staging_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
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
    if (::unlinkat(staging_fd, name.c_str(), 0) != 0) spdlog::warn("cannot remove staging file {}", name);
}

}  // namespace tfwsl::dataset::import_detail
