#pragma once
// The job's report in the making: the per-file problems (listed up to a cap, then only counted)
// and the names Windows cannot show. Every phase adds to it, from any thread.

#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "linux/dataset/import_types.hpp"
#include "linux/dataset/progress.hpp"
#include "linux/dataset/tree_scan.hpp"

namespace tfwsl::dataset::import_detail {

class ProblemList {
 public:
  explicit ProblemList(ProgressTracker& progress) : m_progress(progress) {}

  // Counted in the progress, logged, and listed while the list has room.
  void add(const std::string& path, std::string kind, std::string message);
  // The scan's items whose names Windows cannot show or re-create (the first ones, up to a cap).
  void note_unusual_names(const std::vector<ScannedItem>& items);
  // The final report, with the job's totals.
  ImportReport report(const ProgressSnapshot& totals);

 private:
  ProgressTracker& m_progress;
  std::mutex m_mutex;
  ImportReport m_report;
};

}  // namespace tfwsl::dataset::import_detail
