#include <fcntl.h>
#include <fmt/format.h>
#include <spdlog/spdlog.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <iterator>
#include <map>
#include <string>

#include "linux/dataset/import_commit.hpp"
#include "linux/dataset/import_tuning.hpp"

namespace tfwsl::dataset::import_detail {

// While one worker commits (a syncfs can take seconds), the others go on copying into the pending
// batch; a worker that finds it at k_max_pending_files waits for that commit and commits the rest
// itself, so that small files copied faster than they commit cannot pile up without bound (100,000
// tiny files once held 17 MiB of pending records).
void BatchCommitter::stage(Staged staged) {
  bool full;
  {
    std::lock_guard lock(m_pending_mutex);
    if (!staged.synced) m_pending_unsynced_bytes += staged.entry.size;
    m_pending.push_back(std::move(staged));
    full = m_pending.size() >= k_max_pending_files;
  }
  commit_pending(full);
}

void BatchCommitter::commit_pending(bool force) {
  std::unique_lock commit_lock(m_commit_mutex, std::defer_lock);
  if (force)
    commit_lock.lock();
  else if (!commit_lock.try_lock())
    return;
  std::vector<Staged> batch;
  {
    std::lock_guard lock(m_pending_mutex);
    if (m_pending.empty()) return;
    if (!force && m_pending.size() < k_batch_files && m_pending_unsynced_bytes < k_batch_bytes) return;
    batch.swap(m_pending);
    m_pending_unsynced_bytes = 0;
  }
  commit(std::move(batch));
}

// Durable before visible: one syncfs for the batch's small files, then the renames, then the
// folders that received them, then the manifest records; only then may --move delete sources.
void BatchCommitter::commit(std::vector<Staged> batch) {
  if (!sync_batch(batch)) return;
  std::map<std::string, UniqueFd> folders;  // each target folder of the batch, opened once
  std::vector<Staged> renamed = rename_into_place(batch, folders);
  for (const auto& [folder, fd] : folders) {
    if (!fd) continue;
    if (int error = m_job.files.fsync_folder(fd.get(), folder))
      return m_job.stop.fail(ErrorCode::io, folder, "making the folder durable", error);
  }
  if (renamed.empty()) return;
  commit_records(renamed);
}

// The batch's manifest records, durable; only then does a file count as imported and may --move
// delete its source.
void BatchCommitter::commit_records(const std::vector<Staged>& renamed) {
  if (int error = m_manifest.append(renamed))
    return m_job.stop.fail(ErrorCode::io, "", "writing the import manifest", error);
  for (const auto& s : renamed) {
    m_job.progress.file_copied(0);
    m_mover.delete_source(s.entry.path, s.entry, std::make_pair(s.source_dev, s.source_ino));
  }
}

// A staged copy that will not be committed: its temporary file removed, its bytes uncounted.
void BatchCommitter::discard(const Staged& staged) {
  ::unlinkat(m_staging_fd, staged.temp_name.c_str(), 0);
  m_job.progress.uncount_copied_bytes(staged.entry.size);
}

// The batch's syncfs. false: the job stops (the batch is thrown away). Small files whose syncfs
// failed leave the batch, to be copied afresh; files that had their own fsync go on.
bool BatchCommitter::sync_batch(std::vector<Staged>& batch) {
  bool any_unsynced = std::any_of(batch.begin(), batch.end(), [](const Staged& s) { return !s.synced; });
  if (!any_unsynced) return true;
  int error = m_job.files.sync_filesystem(m_staging_fd);
  if (error == 0) return true;
  auto unsynced = std::stable_partition(batch.begin(), batch.end(), [](const Staged& s) { return s.synced; });
  std::vector<Staged> redo(std::make_move_iterator(unsynced), std::make_move_iterator(batch.end()));
  batch.erase(unsynced, batch.end());
  spdlog::warn("syncfs on the target failed ({}); copying {} file(s) again", errno_text(error), redo.size());
  for (const auto& s : redo) discard(s);
  if (error == ENOSPC || error == EDQUOT || error == EROFS) {
    for (const auto& s : batch) discard(s);
    m_job.stop.fail(ErrorCode::io, "", "syncing", error);
    return false;
  }
  for (const auto& s : redo) {
    if (s.attempts >= k_max_attempts) {
      for (const auto& kept : batch) discard(kept);
      m_job.stop.fail(ErrorCode::io, s.entry.path, "making the copy durable", error);
      return false;
    }
    m_retries.push({s.item, s.attempts + 1});
  }
  return true;
}

// Each copy goes into its folder through that folder's descriptor, opened beneath the target
// without following symlinks and checked not to be a source folder (TargetFolders): a symlink
// planted or swapped in since the folder pass blocks its files, it never redirects them.
std::vector<Staged> BatchCommitter::rename_into_place(std::vector<Staged>& batch,
                                                      std::map<std::string, UniqueFd>& folders) {
  std::vector<Staged> renamed;
  renamed.reserve(batch.size());
  std::map<std::string, FolderBlock> blocks;
  auto discard_from = [&](std::size_t from) {
    for (std::size_t i = from; i < batch.size(); ++i) discard(batch[i]);
  };
  auto not_imported = [&](const Staged& s, const std::string& kind, const std::string& message) {
    ::unlinkat(m_staging_fd, s.temp_name.c_str(), 0);
    m_job.problems.add(s.entry.path, kind, message);
    m_job.progress.file_failed(0);
  };
  for (std::size_t i = 0; i < batch.size(); ++i) {
    Staged& s = batch[i];
    std::string folder = parent_of(s.entry.path);
    if (!folders.count(folder) && !blocks.count(folder)) {
      UniqueFd fd;
      FolderOutcome opened = m_folders.open_for_rename(folder, fd);
      if (opened.kind == FolderOutcome::Kind::stop_overlap) {
        discard_from(i);
        m_job.stop.refuse(opened.message);
        break;
      }
      if (opened.kind == FolderOutcome::Kind::stop_io) {
        discard_from(i);
        m_job.stop.fail(ErrorCode::io, folder, "opening the folder", opened.error);
        break;
      }
      if (opened.kind == FolderOutcome::Kind::blocked)
        blocks.emplace(folder, opened.block);
      else
        folders.emplace(folder, std::move(fd));
    }
    if (auto block = blocks.find(folder); block != blocks.end()) {
      not_imported(s, block->second.kind, block->second.message);
      continue;
    }
    int error = m_job.files.rename_into_place(m_staging_fd, s.temp_name, folders.at(folder).get(),
                                              leaf_of(s.entry.path), s.entry.path);
    if (error == EISDIR || error == ENOTDIR || error == ENOTEMPTY || error == EEXIST || error == ENOENT) {
      not_imported(
          s, "exists-as-other",
          "the target has something else at this name (a folder?) or its folder is missing: " + errno_text(error));
      continue;
    }
    if (error == EXDEV) {  // a mount point inside the target: the staging folder is on another filesystem
      not_imported(s, "error",
                   fmt::format("its folder '{}' in the target is on another filesystem (a mount point inside the "
                               "target), where the copy cannot be renamed: not imported, the source is kept",
                               display_path(folder)));
      continue;
    }
    if (error != 0) {
      discard_from(i);
      m_job.stop.fail(ErrorCode::io, s.entry.path, "renaming the copy into place", error);
      break;
    }
    renamed.push_back(std::move(s));
  }
  return renamed;
}

}  // namespace tfwsl::dataset::import_detail
