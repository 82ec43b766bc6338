#include "linux/dataset/import_problems.hpp"

#include <spdlog/spdlog.h>

#include <iterator>
#include <string>
#include <utility>

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

void ProblemList::note_unusual_name(std::string_view path) {
  std::size_t slash = path.rfind('/');
  if (!is_windows_unfriendly_name(slash == std::string_view::npos ? path : path.substr(slash + 1))) return;
  std::lock_guard lock(m_mutex);
  if (m_unusual.size() >= k_max_listed_unusual && path >= *m_unusual.rbegin()) return;
  m_unusual.emplace(path);
  if (m_unusual.size() > k_max_listed_unusual) m_unusual.erase(std::prev(m_unusual.end()));
}

void ProblemList::note_unusual_names(const ScanItems& items) {
  for (std::size_t i = 0; i < items.size(); ++i)
    if (is_windows_unfriendly_name(items.leaf(i))) note_unusual_name(items.path(i));
}

ImportReport ProblemList::report(const ProgressSnapshot& totals) {
  std::lock_guard lock(m_mutex);
  m_report.totals = totals;
  m_report.unusual_names.assign(m_unusual.begin(), m_unusual.end());
  return m_report;
}

}  // namespace tfwsl::dataset::import_detail
