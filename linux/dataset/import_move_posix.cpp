#include <fcntl.h>
#include <spdlog/spdlog.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <string>
#include <vector>

#include "linux/dataset/import_move.hpp"
#include "linux/dataset/import_tuning.hpp"

namespace tfwsl::dataset::import_detail {

// A source folder ("" is the root) opened beneath the source root without following any symlink.
UniqueFd SourceMover::open_source_folder(const std::string& folder) {
  return UniqueFd(folder.empty() ? ::openat(m_source_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
                                 : open_beneath(m_source_fd, folder, O_RDONLY | O_DIRECTORY));
}

void SourceMover::delete_source(const std::string& path, const ManifestEntry& copied,
                                std::optional<std::pair<dev_t, ino_t>> id) {
  if (!m_enabled) return;
  std::string parent = parent_of(path);
  // Through a held descriptor of the parent, opened without following any symlink: a folder
  // swapped for a symlink since the scan cannot redirect the deletion outside the source.
  UniqueFd dir = open_source_folder(parent);
  if (!dir)
    return m_job.problems.add(path, "kept-changed",
                              "the source's folder cannot be opened safely (" + errno_text(errno) + "): source kept");
  std::string leaf = leaf_of(path);
  struct stat now {};
  if (::fstatat(dir.get(), leaf.c_str(), &now, AT_SYMLINK_NOFOLLOW) != 0) return;  // already gone
  bool same = static_cast<std::uint64_t>(now.st_size) == copied.size && to_ns(now.st_mtim) == copied.mtime_ns &&
              (!id || (now.st_dev == id->first && now.st_ino == id->second));
  if (!same)
    return m_job.problems.add(
        path, "kept-changed",
        "the source changed after it was copied (size or mtime): it was kept; run the import again "
        "to copy the new version");
  int error = m_job.files.unlink_source(dir.get(), leaf, path);
  if (error != 0)
    return m_job.problems.add(
        path, "kept",
        "cannot delete the source after copying it (" + errno_text(error) +
            "): the source was kept and its copy is complete and verified in the target; fix the "
            "cause (the folder's permissions?) and run the import again, or delete the source yourself");
  m_job.progress.file_moved();
}

void SourceMover::remove_emptied_folders(const std::vector<std::string>& directories) {
  if (!m_enabled) return;
  for (auto it = directories.rbegin(); it != directories.rend(); ++it) {
    std::string parent = parent_of(*it);
    UniqueFd dir = open_source_folder(parent);
    if (!dir) continue;
    int error = m_job.files.remove_source_folder(dir.get(), leaf_of(*it), *it);
    if (error != 0 && error != ENOTEMPTY && error != EEXIST && error != ENOENT)
      spdlog::info("{}: folder not removed: {}", display_path(*it), errno_text(error));
  }
}

}  // namespace tfwsl::dataset::import_detail
