#pragma once
// The port through which the import engine makes the filesystem calls that can fail mid-job and
// that decide whether a file is safe: the writes of a copy, the fsyncs, the renames into the target,
// the manifest's records and --move's deletions. The engine calls these, never the syscalls, so a
// unit test can fail any phase (ENOSPC on a write in copy, EIO on a sync in commit, a failed rename
// or source unlink in move) with a fake, and check what the job does about it.
//
// Each call returns 0 or the errno (copy_range: the bytes copied or -errno). `path` is the file's
// path relative to the source root, for an implementation to decide by; it is never opened.
// Opening, stat-ing and reading stay plain calls: they fail per file (a vanished or unreadable
// source), which the job reports and skips, and real files make those cases in the tests. So do
// the steps around the files (the state folder, the lock, the target's folders, the compacted
// manifest's rename): a failure there stops the job before a file is staged or after all are.

#include <sys/types.h>

#include <cstddef>
#include <string>

#include "linux/dataset/import_types.hpp"

namespace tfwsl::dataset {

class ImportFiles {
 public:
  virtual ~ImportFiles() = default;

  // copy: a chunk of a file into its temporary file; large: the file has its own fsync (4 MiB+).
  virtual int write_chunk(int fd, const char* data, std::size_t size, const std::string& path, bool large) = 0;
  // copy: copy_file_range of a large file's chunk. Bytes copied (0 at the end), or -errno.
  virtual ssize_t copy_range(int from, loff_t* from_offset, int to, loff_t* to_offset, std::size_t size,
                             const std::string& path) = 0;
  // copy: a large file's own fsync, before its batch commits.
  virtual int fsync_file(int fd, const std::string& path) = 0;
  // commit: the one syncfs that makes a batch's small files durable.
  virtual int sync_filesystem(int staging_fd) = 0;
  // commit (and --move's first half): a durable copy renamed from staging into its target folder.
  virtual int rename_into_place(int staging_fd, const std::string& temp_name, int folder_fd, const std::string& leaf,
                                const std::string& path) = 0;
  // commit: fsync of a target folder that received renames.
  virtual int fsync_folder(int folder_fd, const std::string& folder) = 0;
  // commit and compaction: manifest records written, then made durable (whole_file: fsync of a
  // new manifest, else fdatasync of appended records).
  virtual int write_manifest(int fd, const std::string& text) = 0;
  virtual int sync_manifest(int fd, bool whole_file) = 0;
  // move: a source file deleted once its copy is durable and verified.
  virtual int unlink_source(int folder_fd, const std::string& leaf, const std::string& path) = 0;
  // move: an emptied source folder removed.
  virtual int remove_source_folder(int parent_fd, const std::string& leaf, const std::string& path) = 0;
};

// The real calls. One instance serves every job (it holds no state).
ImportFiles& posix_import_files();

// The engine's view of its files: the given port with the test hook of ImportOptions (FaultHook)
// called first, with the method's own name as the step (import_types.hpp); a non-zero hook result
// is returned as the call's errno and the call is not made. Without a hook it only forwards.
class HookedImportFiles final : public ImportFiles {
 public:
  HookedImportFiles(ImportFiles& inner, FaultHook hook) : m_inner(inner), m_hook(std::move(hook)) {}

  int write_chunk(int fd, const char* data, std::size_t size, const std::string& path, bool large) override;
  ssize_t copy_range(int from, loff_t* from_offset, int to, loff_t* to_offset, std::size_t size,
                     const std::string& path) override;
  int fsync_file(int fd, const std::string& path) override;
  int sync_filesystem(int staging_fd) override;
  int rename_into_place(int staging_fd, const std::string& temp_name, int folder_fd, const std::string& leaf,
                        const std::string& path) override;
  int fsync_folder(int folder_fd, const std::string& folder) override;
  int write_manifest(int fd, const std::string& text) override;
  int sync_manifest(int fd, bool whole_file) override;
  int unlink_source(int folder_fd, const std::string& leaf, const std::string& path) override;
  int remove_source_folder(int parent_fd, const std::string& leaf, const std::string& path) override;

 private:
  int hook(std::string_view step, const std::string& path) const { return m_hook ? m_hook(step, path) : 0; }

  ImportFiles& m_inner;
  FaultHook m_hook;
};

}  // namespace tfwsl::dataset
