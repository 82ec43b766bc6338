#pragma once
// The job's report in the making: the per-file problems (listed up to a cap, then only counted)
// and the names Windows cannot show. Every phase adds to it, from any thread.

#include <cstdint>
#include <functional>
#include <mutex>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "linux/dataset/import_types.hpp"
#include "linux/dataset/progress.hpp"
#include "linux/dataset/scan_items.hpp"

namespace tfwsl::dataset::import_detail {

class ProblemList {
 public:
  explicit ProblemList(ProgressTracker& progress) : m_progress(progress) {}

  // Counted in the progress, logged, and listed while the list has room.
  void add(const std::string& path, std::string kind, std::string message);
  // Paths whose names Windows cannot show or re-create: the first ones by path, up to a cap,
  // whatever order they are noted in (the scan notes files it leaves out from its threads).
  void note_unusual_name(std::string_view path);
  void note_unusual_names(const ScanItems& items);
  // The final report, with the job's totals.
  ImportReport report(const ProgressSnapshot& totals);

 private:
  ProgressTracker& m_progress;
  std::mutex m_mutex;
  ImportReport m_report;
  std::set<std::string, std::less<>> m_unusual;
};

}  // namespace tfwsl::dataset::import_detail
