#pragma once
// The move phase (--move): a source file deleted once its copy is durable, renamed and verified
// (and only if it is still the file that was copied), then the source folders it emptied.

#include <sys/types.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "linux/dataset/import_job_context.hpp"
#include "linux/dataset/manifest.hpp"
#include "linux/dataset/posix_files.hpp"

namespace tfwsl::dataset::import_detail {

class SourceMover {
 public:
  // enabled: --move; otherwise every call does nothing.
  SourceMover(bool enabled, int source_fd, JobContext& job) : m_enabled(enabled), m_source_fd(source_fd), m_job(job) {}

  // `copied`: the record of the verified copy; `id`: the (st_dev, st_ino) it was copied from, when known.
  void delete_source(const std::string& path, const ManifestEntry& copied, std::optional<std::pair<dev_t, ino_t>> id);
  // The scan's folders (parents before children), deepest first, each removed if empty.
  void remove_emptied_folders(const std::vector<std::string>& directories);

 private:
  UniqueFd open_source_folder(const std::string& folder);

  bool m_enabled;
  int m_source_fd;
  JobContext& m_job;
};

}  // namespace tfwsl::dataset::import_detail
