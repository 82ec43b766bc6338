#include "linux/dataset/import_problems.hpp"

#include <utility>

#include <spdlog/spdlog.h>

#include "linux/dataset/import_tuning.hpp"
#include "linux/dataset/posix_files.hpp"

namespace tfwsl::dataset::import_detail {

void ProblemList::add(const std::string& path, std::string kind, std::string message) {
  m_progress.problem();
  spdlog::warn("{}: {}", display_path(path), message);
  std::lock_guard lock(m_mutex);
  if (m_report.problems.size() < k_max_listed_problems)
    m_report.problems.push_back({path, std::move(kind), std::move(message)});
  else
    ++m_report.problems_not_listed;
}

void ProblemList::note_unusual_names(const std::vector<ScannedItem>& items) {
  std::lock_guard lock(m_mutex);
  for (const auto& item : items)
    if (m_report.unusual_names.size() < k_max_listed_unusual && is_windows_unfriendly_name(leaf_of(item.path)))
      m_report.unusual_names.push_back(item.path);
}

ImportReport ProblemList::report(const ProgressSnapshot& totals) {
  std::lock_guard lock(m_mutex);
  m_report.totals = totals;
  return m_report;
}

}  // namespace tfwsl::dataset::import_detail
