#pragma once
// The copy phase: one file or symlink of the source into the staging folder (hashed as read,
// checked for changes, made durable when large, read back and verified), and a copy in the target
// read back for --verify and --move. Called from every worker at once.

#include <sys/stat.h>
#include <sys/types.h>

#include <atomic>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "common/util/content_hash.hpp"
#include "linux/dataset/import_job_context.hpp"
#include "linux/dataset/import_roots.hpp"
#include "linux/dataset/import_staged.hpp"
#include "linux/dataset/posix_files.hpp"
#include "linux/dataset/tree_scan.hpp"

namespace tfwsl::dataset::import_detail {

enum class CopyOutcome { staged, retry, durability_failed, gave_up, stopped };

struct FileCopy;     // one file's copy in progress (import_copy_posix.cpp)
struct CopiedChunk;  // one chunk of it

class FileCopier {
 public:
  FileCopier(const ImportRoots& roots, JobContext& job)
      : m_source_fd(roots.source.get()),
        m_target_fd(roots.target.get()),
        m_staging_fd(roots.staging.get()),
        m_source_is_drvfs(roots.source_is_drvfs),
        m_job(job) {}

  // The item into staging; `staged` is filled when the outcome is `staged`. The buffer and hasher
  // are the calling worker's own.
  CopyOutcome copy(const ScannedItem& item, Staged& staged, std::span<char> buffer, ContentHasher& hasher);
  // The hash of the item's copy in the target, or nullopt when it cannot be read.
  std::optional<std::string> hash_in_target(const ScannedItem& item, std::span<char> buffer, ContentHasher& hasher);

 private:
  CopyOutcome copy_file(const ScannedItem& item, Staged& staged, std::span<char> buffer, ContentHasher& hasher);
  CopyOutcome copy_symlink(const ScannedItem& item, Staged& staged);
  UniqueFd open_source_file(const ScannedItem& item, struct stat& before);
  std::optional<CopyOutcome> copy_contents(FileCopy& copy, std::span<char> buffer, ContentHasher& hasher);
  CopiedChunk copy_range_chunk(FileCopy& copy, std::span<char> buffer, ContentHasher& hasher);
  CopiedChunk copy_buffered_chunk(FileCopy& copy, std::span<char> buffer, ContentHasher& hasher);
  std::optional<CopyOutcome> make_copy_durable(FileCopy& copy, Staged& staged);
  bool copy_reads_back(const FileCopy& copy, const std::string& source_hash, std::span<char> buffer,
                       ContentHasher& hasher);
  void discard_copy(FileCopy& copy);
  std::string next_temp_name() { return std::to_string(m_temp_seq++) + ".tmp"; }
  mode_t target_mode(const ScannedItem& item) const;

  int m_source_fd, m_target_fd, m_staging_fd;
  bool m_source_is_drvfs;
  JobContext& m_job;
  std::atomic<std::uint64_t> m_temp_seq{0};
  std::atomic<bool> m_copy_range_ok{true};
};

}  // namespace tfwsl::dataset::import_detail
