#pragma once
// The target side of an import: its folders, created and opened beneath the target root without
// following any symlink (open_beneath: openat2 RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS, or its
// O_NOFOLLOW walk). A symlink where the import needs a folder blocks the files under it, each
// reported, and is never followed; a folder that is one of the source's own folders (by
// st_dev/st_ino: a bind mount, a source moved in mid-run) stops the job before anything is renamed
// into it. Every rename then goes through the descriptor of a folder opened this way.
// POSIX implementation (target_folders_posix.cpp).

#include <cstdint>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "linux/dataset/posix_files.hpp"

namespace tfwsl::dataset {

// Why files cannot go into a folder of the target (reported for each of them, the job goes on).
struct FolderBlock {
  std::string kind;     // "target-symlink", "exists-as-other" or "error" (a FileProblem kind)
  std::string message;  // names the folder of the target that is in the way
};

// What opening or making one target folder came to.
struct FolderOutcome {
  enum class Kind { ok, blocked, stop_io, stop_overlap } kind = Kind::ok;
  FolderBlock block;    // for blocked
  int error = 0;        // for stop_io: the errno
  std::string folder;   // for stop_io: the folder it happened on
  std::string message;  // for stop_overlap
};

using FileIdSet = std::unordered_set<FileId, FileIdHash>;

class TargetFolders {
 public:
  TargetFolders() = default;
  explicit TargetFolders(int target_fd);

  // Remembers the source's folders (the scan's directory_ids), checks the target root against
  // them, then makes each folder (relative, parents before children) beneath the root. Returns the
  // first stop (no space, I/O error, overlap) or ok; blocked folders are remembered. Before any
  // worker starts: the lookups below read what it wrote without a lock.
  FolderOutcome make_all(const std::vector<std::string>& folders, FileIdSet source_folders);

  // The block on a folder found by make_all (its children included), or nullptr.
  const FolderBlock* blocked(const std::string& folder) const;

  // Opens a folder for renaming into it and fsync: beneath the root, no symlink followed, and not
  // one of the source's folders. ok with fd set, blocked (a symlink or file appeared since), or
  // stop_overlap.
  FolderOutcome open_for_rename(const std::string& folder, UniqueFd& fd) const;

  // Whether the target has an entry of this kind and size at `path`, looked up beneath the root
  // without following symlinks. Called on many threads; each keeps its last folder open.
  bool present(const std::string& path, bool symlink, std::uint64_t size) const;

 private:
  FolderOutcome make(const std::string& folder);
  FolderOutcome judge_existing(int parent_fd, const std::string& folder) const;
  FolderOutcome source_folder_stop(const std::string& folder) const;

  int m_target_fd = -1;
  std::uint64_t m_serial = 0;  // tells one job's per-thread folder cache from another's
  FileIdSet m_source_folders;
  std::unordered_map<std::string, FolderBlock> m_blocked;
};

}  // namespace tfwsl::dataset
