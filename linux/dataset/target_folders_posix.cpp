#include <fcntl.h>
#include <fmt/format.h>
#include <spdlog/spdlog.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>

#include "linux/dataset/import_types.hpp"
#include "linux/dataset/target_folders.hpp"

namespace tfwsl::dataset {
namespace {

std::atomic<std::uint64_t> g_next_serial{1};

std::string shown(const std::string& folder) { return folder.empty() ? std::string(".") : display_path(folder); }

FolderOutcome blocked_by(std::string kind, std::string message) {
  FolderOutcome out;
  out.kind = FolderOutcome::Kind::blocked;
  out.block = {std::move(kind), std::move(message)};
  return out;
}

FolderOutcome symlink_block(const std::string& folder) {
  return blocked_by("target-symlink",
                    fmt::format("target path component is a symlink: '{}' in the target is a symlink (or goes "
                                "through one), and the import never follows one; not imported, the source is kept. "
                                "Remove or rename that symlink in the target, then run the import again",
                                shown(folder)));
}

FolderOutcome not_a_folder_block(const std::string& folder) {
  return blocked_by("exists-as-other",
                    fmt::format("the target has something other than a folder at '{}', where this file's folder "
                                "goes: not imported, the source is kept",
                                shown(folder)));
}

FolderOutcome stop_io(int error) {
  FolderOutcome out;
  out.kind = FolderOutcome::Kind::stop_io;
  out.error = error;
  return out;
}

bool is_stop_errno(int error) { return error == ENOSPC || error == EDQUOT || error == EIO || error == EROFS; }

// An open of a target folder that failed, told apart by errno.
FolderOutcome failed_open(const std::string& folder, int error) {
  if (error == ELOOP) return symlink_block(folder);
  if (error == ENOTDIR) return not_a_folder_block(folder);
  if (is_stop_errno(error)) return stop_io(error);
  if (error == ENOENT)
    return blocked_by("exists-as-other", fmt::format("its folder '{}' is missing in the target (removed during the "
                                                     "import?): not imported, the source is kept",
                                                     shown(folder)));
  return blocked_by("error", fmt::format("cannot open the folder '{}' in the target ({}): not imported, the source "
                                         "is kept",
                                         shown(folder), errno_text(error)));
}

}  // namespace

TargetFolders::TargetFolders(int target_fd) : m_target_fd(target_fd), m_serial(g_next_serial++) {}

FolderOutcome TargetFolders::source_folder_stop(const std::string& folder) const {
  FolderOutcome out;
  out.kind = FolderOutcome::Kind::stop_overlap;
  out.message = fmt::format(
      "the target folder '{}' is one of the source's own folders (the same inode, reached "
      "through a bind mount or a folder moved into the target): source and target overlap, "
      "and the import stopped before renaming anything into it. Choose a target outside the "
      "source and a source outside the target",
      shown(folder));
  return out;
}

FolderOutcome TargetFolders::make_all(const std::vector<std::string>& folders, FileIdSet source_folders) {
  m_source_folders = std::move(source_folders);
  struct stat root {};
  if (::fstat(m_target_fd, &root) != 0) return stop_io(errno);
  if (m_source_folders.count(file_id(root))) return source_folder_stop("");
  for (const auto& folder : folders) {
    FolderOutcome outcome = make(folder);
    if (outcome.kind == FolderOutcome::Kind::stop_io || outcome.kind == FolderOutcome::Kind::stop_overlap) {
      outcome.folder = folder;
      return outcome;
    }
    if (outcome.kind != FolderOutcome::Kind::blocked) continue;
    if (!blocked(parent_of(folder))) spdlog::warn("{}: {}", shown(folder), outcome.block.message);
    m_blocked.emplace(folder, std::move(outcome.block));
  }
  return {};
}

const FolderBlock* TargetFolders::blocked(const std::string& folder) const {
  auto it = m_blocked.find(folder);
  return it == m_blocked.end() ? nullptr : &it->second;
}

FolderOutcome TargetFolders::make(const std::string& folder) {
  std::string parent = parent_of(folder);
  if (const FolderBlock* above = blocked(parent)) return blocked_by(above->kind, above->message);
  UniqueFd parent_fd(open_beneath(m_target_fd, parent, O_PATH | O_DIRECTORY));
  if (!parent_fd) return failed_open(parent, errno);
  std::string leaf = leaf_of(folder);
  if (::mkdirat(parent_fd.get(), leaf.c_str(), 0755) == 0) return {};  // a new folder: no source's
  int error = errno;
  if (error == EEXIST) return judge_existing(parent_fd.get(), folder);
  if (is_stop_errno(error)) return stop_io(error);
  return blocked_by("error", fmt::format("cannot create the folder '{}' in the target ({}): not imported, the "
                                         "source is kept",
                                         shown(folder), errno_text(error)));
}

FolderOutcome TargetFolders::judge_existing(int parent_fd, const std::string& folder) const {
  struct stat st {};
  if (::fstatat(parent_fd, leaf_of(folder).c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) return failed_open(folder, errno);
  if (S_ISLNK(st.st_mode)) return symlink_block(folder);
  if (!S_ISDIR(st.st_mode)) return not_a_folder_block(folder);
  if (m_source_folders.count(file_id(st))) return source_folder_stop(folder);
  return {};
}

FolderOutcome TargetFolders::open_for_rename(const std::string& folder, UniqueFd& fd) const {
  fd = UniqueFd(open_beneath(m_target_fd, folder, O_RDONLY | O_DIRECTORY));
  if (!fd) return failed_open(folder, errno);
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) return stop_io(errno);
  // Renaming a copy into a folder of the source would replace the source's file of that name
  // before it is imported; that is the only way a rename can destroy a source file (a target file
  // hard-linked to a source file loses only the target's name), so this check is the whole guard.
  if (m_source_folders.count(file_id(st))) {
    fd.reset();
    return source_folder_stop(folder);
  }
  return {};
}

bool TargetFolders::present(const std::string& path, bool symlink, std::uint64_t size) const {
  struct FolderCache {
    std::uint64_t serial = 0;
    std::string folder;
    UniqueFd fd;
  };
  // The scan visits a folder's entries in runs of several: one open per run, not per file.
  thread_local FolderCache cache;
  std::string folder = parent_of(path);
  if (cache.serial != m_serial || cache.folder != folder || !cache.fd) {
    cache.fd = UniqueFd(open_beneath(m_target_fd, folder, O_PATH | O_DIRECTORY));
    cache.serial = m_serial;
    cache.folder = folder;
  }
  struct stat st {};
  if (!cache.fd || ::fstatat(cache.fd.get(), leaf_of(path).c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) return false;
  bool kind_ok = symlink ? S_ISLNK(st.st_mode) : S_ISREG(st.st_mode);
  return kind_ok && static_cast<std::uint64_t>(st.st_size) == size;
}

}  // namespace tfwsl::dataset
