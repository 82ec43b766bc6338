#pragma once
// The manifest file in the target's state folder: read at the start into the resume check's index,
// appended to by each commit, and rewritten whole (temp, fsync, rename) when it is new, was cut
// short by a crash, or has records a later one replaced. The file is read in pieces, never held
// whole: a million records are about 100 MB of text.

#include <atomic>
#include <cstddef>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "common/core/error.hpp"
#include "linux/dataset/import_files.hpp"
#include "linux/dataset/import_staged.hpp"
#include "linux/dataset/manifest.hpp"
#include "linux/dataset/manifest_index.hpp"
#include "linux/dataset/posix_files.hpp"

namespace tfwsl::dataset::import_detail {

class ManifestFile {
 public:
  // keep_records: the index keeps whole records (--verify and --move need their hashes).
  ManifestFile(int state_fd, std::filesystem::path target, ImportFiles& files, bool keep_records)
      : m_state_fd(state_fd), m_target(std::move(target)), m_files(files), m_loaded(keep_records) {}

  // Loads the records, rewrites a new or cut-short manifest whole, and opens it for appending.
  Status open();
  // The records as loaded (what earlier runs imported); read-only while the job runs.
  const ManifestIndex& loaded() const { return m_loaded; }
  // A committed batch's records appended and made durable. 0 or the errno.
  int append(const std::vector<Staged>& renamed);
  // Rewrites the manifest when this run replaced records it had loaded: a no-op re-run writes nothing.
  // Reads the manifest back for it: this run's records are on disk, not kept in memory (a
  // million-file import would hold a million records only to find none of them replaced one).
  Status compact_if_superseded();

 private:
  Result<bool> load();  // true: it ends with a whole record (appends may follow)
  // Every whole record of the manifest, in file order, to `reader`.
  Result<bool> read(ManifestReader& reader, std::size_t* file_size = nullptr);
  Status require_regular(int fd, const std::string& where) const;
  Status write_compacted();
  std::string where() const;

  int m_state_fd;
  std::filesystem::path m_target;
  ImportFiles& m_files;
  UniqueFd m_append_fd;
  ManifestIndex m_loaded;
  std::atomic<bool> m_superseded{false};  // a record appended this run replaced one loaded
};

}  // namespace tfwsl::dataset::import_detail
